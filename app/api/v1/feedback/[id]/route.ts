import { idParams, route } from "@/lib/http/route";
import { preflight, withCors, type OriginResolver } from "@/lib/http/cors";
import { clientIp } from "@/lib/access/client-ip";
import { messageAdmins, runChatflow } from "@/common/access/permissions";
import { createFeedbackSchema, listFeedbackQuery, updateFeedbackSchema } from "@/common/schemas/feedback";
import { chatflowIdOf, createFeedback, listFeedback, updateFeedback } from "@/lib/services/feedback";
import { corsOriginsForChatflowOrFeedback } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";

/** `{id}` is a chatflow's (POST, GET) or a feedback's (PUT): CORS for that chatflow's allowed origins. */
const corsOrigins: OriginResolver = (params) => corsOriginsForChatflowOrFeedback(String(params.id ?? ""));

export const OPTIONS = preflight(corsOrigins, ["POST", "PUT"]);

const MAX_BODY = 64 * 1024;

/** POST /api/v1/feedback/{chatflowid} (what flowise-embed calls): rates an answer; one rating per message. */
export const POST = withCors(
  route(
    { auth: runChatflow, params: idParams, body: { json: createFeedbackSchema, maxBytes: MAX_BODY } },
    async ({ req, params, body, caller }) =>
      createFeedback(
        { ...body, chatflowId: chatflowIdOf(params.id, body.chatflowid) },
        { caller, origin: req.headers.get("origin"), clientIp: clientIp(req) },
      ),
  ),
  corsOrigins,
);

/** PUT /api/v1/feedback/{feedbackId}: the comment typed after a thumb, or a changed rating. */
export const PUT = withCors(
  route(
    { auth: runChatflow, params: idParams, body: { json: updateFeedbackSchema, maxBytes: MAX_BODY } },
    async ({ req, params, body, caller }) =>
      updateFeedback(params.id, body, { caller, origin: req.headers.get("origin"), clientIp: clientIp(req) }),
  ),
  corsOrigins,
);

/** GET /api/v1/feedback/{chatflowid}: the chatflow's feedback, for the Message API's readers (admins). */
export const GET = route(
  { auth: messageAdmins, params: idParams, query: listFeedbackQuery },
  async ({ params, query, caller }) => listFeedback(params.id, query, caller),
);

export const { PATCH, DELETE } = refuseOtherMethods("GET", "POST", "PUT");
