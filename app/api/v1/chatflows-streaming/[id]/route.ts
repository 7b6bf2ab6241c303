import { idParams, route } from "@/lib/http/route";
import { getChatflowOrThrow } from "@/lib/services/chatflows";
import { refuseOtherMethods } from "@/lib/http/methods";

/** Flowise clients (flowise-sdk, the embed) ask this before streaming; every chatflow here can stream. */
export const GET = route({ auth: { anonymous: true, session: true, apiKey: "predict" }, params: idParams }, async ({ params }) => {
  await getChatflowOrThrow(params.id);
  return { isStreaming: true };
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
