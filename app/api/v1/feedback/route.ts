import { route } from "@/lib/http/route";
import { preflight, withCors, type OriginResolver } from "@/lib/http/cors";
import { clientIp } from "@/lib/access/client-ip";
import { foreignOrigin } from "@/lib/http/same-origin";
import { runChatflow } from "@/common/access/permissions";
import { createFeedbackWithChatflowSchema } from "@/common/schemas/feedback";
import { chatflowIdOf, createFeedback } from "@/lib/services/feedback";
import { corsOriginsForAnyPublicChatflow } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";
import { feedbackResponseSchema } from "@/common/schemas/responses";

/** The chatflow is in the body: preflights pass for origins some public chatflow allows; the service checks this one's. */
const corsOrigins: OriginResolver = (_params, origin) => corsOriginsForAnyPublicChatflow(origin);

export const OPTIONS = preflight(corsOrigins, ["POST"]);

/** POST /api/v1/feedback (Flowise): rates an answer, the chatflow named by `chatflowid` in the body. */
export const POST = withCors(
  route(
    {
      auth: runChatflow,
      body: { json: createFeedbackWithChatflowSchema, maxBytes: 64 * 1024 },
      idempotency: {},
      docs: {
        tag: "Feedback",
        summary: "Rate an answer (Flowise; the chatflow in `chatflowid`)",
        description: "One rating per message: a second one replaces the first. The chatflow must have feedback on.",
        callersNote: "keys in scope; anyone: public chatflows with feedback on",
        responses: { 200: { description: "The stored feedback", schema: feedbackResponseSchema } },
        errors: [404],
        rateLimited: true,
      },
    },
    async ({ req, body, caller }) =>
      createFeedback(
        { ...body, chatflowId: chatflowIdOf(undefined, body.chatflowid) },
        { caller, origin: foreignOrigin(req), clientIp: clientIp(req) },
      ),
  ),
  corsOrigins,
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
