import { idParams, route } from "@/lib/http/route";
import { preflight, withCors, type OriginResolver } from "@/lib/http/cors";
import { runChatflow } from "@/common/access/permissions";
import { getRunnableChatflow } from "@/lib/services/predictions";
import { corsOriginsForChatflow, uploadsConfig } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";
import { uploadsConfigResponseSchema } from "@/common/schemas/responses";

const corsOrigins: OriginResolver = (params) => corsOriginsForChatflow(String(params.id ?? ""));

export const OPTIONS = preflight(corsOrigins, ["GET"]);

/**
 * Flowise's uploads check: which uploads a chatflow takes (`isImageUploadAllowed`,
 * `isSpeechToTextEnabled`, `imgUploadSizeAndTypes`, …, and our own fields). Public chatflows: anyone;
 * a private one only for its managers (404 for everyone else, like an unknown id).
 */
export const GET = withCors(
  route(
    {
      auth: runChatflow,
      params: idParams,
      docs: {
        tag: "Prediction",
        summary: "Which uploads a chatflow takes (Flowise's uploads check)",
        description:
          "Whether images and audio are taken and their limits, in our fields and in the ones Flowise's clients read.",
        callersNote: "public chatflows only for anonymous callers",
        responses: {
          200: {
            description: "Ours (images, audio, limits) and Flowise's fields",
            schema: uploadsConfigResponseSchema,
          },
        },
      },
    },
    async ({ params, caller }) => uploadsConfig(await getRunnableChatflow(params.id, caller)),
  ),
  corsOrigins,
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
