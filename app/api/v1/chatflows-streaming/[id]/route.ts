import { idParams, route } from "@/lib/http/route";
import { runChatflow } from "@/lib/access/permissions";
import { getRunnableChatflow } from "@/lib/services/predictions";
import { refuseOtherMethods } from "@/lib/http/methods";

/**
 * Flowise clients (flowise-sdk, the embed) ask this before streaming, without credentials; every
 * chatflow here can stream. Anonymous callers get the same answer for any id without a lookup (no
 * oracle for private ids; the prediction decides access). Keys and users are checked: a key scoped
 * elsewhere gets 403, another user's private chatflow 404.
 */
export const GET = route({ auth: runChatflow, params: idParams }, async ({ params, caller }) => {
  if (caller.kind !== "anonymous") await getRunnableChatflow(params.id, caller);
  return { isStreaming: true };
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
