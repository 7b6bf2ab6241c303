import { idParams, route } from "@/lib/http/route";
import { getVisibleChatflow } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";

/** Flowise clients (flowise-sdk, the embed) ask this before streaming; every chatflow here can stream. */
export const GET = route({ auth: { anonymous: true, session: true, apiKey: "predict" }, params: idParams }, async ({ params, caller }) => {
  await getVisibleChatflow(params.id, caller);
  return { isStreaming: true };
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
