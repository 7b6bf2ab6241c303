import { idParams, route } from "@/lib/http/route";
import { getChatflowOrThrow } from "@/lib/services/chatflows";
import { refuseOtherMethods } from "@/lib/http/methods";

/**
 * Flowise clients (flowise-sdk, the embed) ask this before streaming; every chatflow here can
 * stream. flowise-sdk asks without its API key, so the anonymous answer cannot depend on the
 * chatflow at all: the same for public, private and unknown ids (no way to probe private ids).
 * Signed-in users and keys get 404 for an unknown id.
 */
export const GET = route({ auth: { anonymous: true, session: true, apiKey: "predict" }, params: idParams }, async ({ params, caller }) => {
  if (caller.kind !== "anonymous") await getChatflowOrThrow(params.id, caller);
  return { isStreaming: true };
});

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
