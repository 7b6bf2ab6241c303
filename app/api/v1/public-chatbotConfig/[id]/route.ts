import { idParams, route } from "@/lib/http/route";
import { foreignOrigin } from "@/lib/http/same-origin";
import { anyOriginHeaders, withHeaders } from "@/lib/http/cors";
import { runChatflow } from "@/common/access/permissions";
import { getPublicChatbotConfig } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";
import { keepRouteOptions } from "@/lib/http/route-options";
import { publicChatbotConfigResponseSchema } from "@/common/schemas/responses";

/**
 * The embed widget's settings. Readable from any page (no cookies cross-origin), so a page whose
 * origin is not allowed can still learn that and tell its visitor; predicting stays refused there.
 */
const handler = route(
  {
    auth: runChatflow,
    params: idParams,
    docs: {
      tag: "Prediction",
      summary: "The embed widget's settings",
      description:
        "Title, welcome message, starter prompts, theme, uploads, feedback and the lead form of a chatflow, and whether the requesting page's origin may chat. Readable from any origin.",
      callersNote: "public chatflows only for anonymous callers; readable from any origin",
      responses: {
        200: { description: "Title, welcome, prompts, theme, features", schema: publicChatbotConfigResponseSchema },
      },
    },
  },
  async ({ req, params, caller }) =>
    getPublicChatbotConfig({ chatflowId: params.id, caller, origin: foreignOrigin(req) }),
);

export const GET: typeof handler = keepRouteOptions(
  async (req, ctx) => withHeaders(await handler(req, ctx), { ...anyOriginHeaders(), "cache-control": "no-store" }),
  handler,
);

export const OPTIONS = async () =>
  new Response(null, {
    status: 204,
    headers: { ...anyOriginHeaders(), "access-control-allow-methods": "GET, OPTIONS" },
  });

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
