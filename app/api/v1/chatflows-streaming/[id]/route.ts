import { idParams, route } from "@/lib/http/route";
import { preflight, withCors, type OriginResolver } from "@/lib/http/cors";
import { runChatflow } from "@/common/access/permissions";
import { getRunnableChatflow } from "@/lib/services/predictions";
import { corsOriginsForChatflow } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";
import { streamingCheckResponseSchema } from "@/common/schemas/responses";

/** Browsers (flowise-sdk, flowise-embed) get CORS headers only from a public chatflow's allowed origins. */
const corsOrigins: OriginResolver = (params) => corsOriginsForChatflow(String(params.id ?? ""));

// flowise-sdk sends `Content-Type: application/json` on this GET, so browsers preflight it.
export const OPTIONS = preflight(corsOrigins, ["GET"]);

/**
 * Flowise clients (flowise-sdk, the embed) ask this before streaming, without credentials; every
 * chatflow here can stream. Anonymous callers get the same answer for any id without a lookup (no
 * oracle for private ids; the prediction decides access). Keys and users are checked: a key scoped
 * elsewhere gets 403, another user's private chatflow 404.
 */
export const GET = withCors(
  route(
    {
      auth: runChatflow,
      params: idParams,
      docs: {
        tag: "Prediction",
        summary: "Whether a chatflow can stream (Flowise clients ask before streaming)",
        description:
          "Every chatflow here can stream. Anonymous callers get the same answer for any id without a lookup; keys and users are checked (403 out of scope, 404 unknown).",
        callersNote: "anonymous callers get the same answer for any id",
        responses: { 200: { description: "Always true here", schema: streamingCheckResponseSchema } },
      },
    },
    async ({ params, caller }) => {
      if (caller.kind !== "anonymous") await getRunnableChatflow(params.id, caller);
      return { isStreaming: true };
    },
  ),
  corsOrigins,
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
