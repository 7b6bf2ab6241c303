import { idParams, route } from "@/lib/http/route";
import { runChatflow } from "@/lib/http/policies";
import { getRunnableChatflow } from "@/lib/services/predictions";

/** Flowise clients (flowise-sdk, the embed) ask this before streaming; every chatflow here can stream. */
export const GET = route({ auth: runChatflow, params: idParams }, async ({ params, caller }) => {
  await getRunnableChatflow(params.id, caller);
  return { isStreaming: true };
});
