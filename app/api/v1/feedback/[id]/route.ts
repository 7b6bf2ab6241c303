import { pageOfQuery } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { idParams, route } from "@/lib/http/route";
import { preflight, withCors, type OriginResolver } from "@/lib/http/cors";
import { clientIp } from "@/lib/access/client-ip";
import { foreignOrigin } from "@/lib/http/same-origin";
import { messageAdmins, runChatflow } from "@/common/access/permissions";
import { createFeedbackSchema, listFeedbackQuery, updateFeedbackSchema } from "@/common/schemas/feedback";
import { chatflowIdOf, createFeedback, listFeedback, updateFeedback } from "@/lib/services/feedback";
import { corsOriginsForChatflowOrFeedback } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";
import { feedbackResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

/** `{id}` is a chatflow's (POST, GET) or a feedback's (PUT): CORS for that chatflow's allowed origins. */
const corsOrigins: OriginResolver = (params) => corsOriginsForChatflowOrFeedback(String(params.id ?? ""));

export const OPTIONS = preflight(corsOrigins, ["POST", "PUT"]);

const MAX_BODY = 64 * 1024;

/** POST /api/v1/feedback/{chatflowid} (what flowise-embed calls): rates an answer; one rating per message. */
export const POST = withCors(
  route(
    {
      auth: runChatflow,
      params: idParams,
      body: { json: createFeedbackSchema, maxBytes: MAX_BODY },
      docs: {
        tag: "Feedback",
        summary: "Rate an answer of the chatflow `{id}` (what flowise-embed calls)",
        description: "One rating per message: a second one replaces the first. The chatflow must have feedback on.",
        callersNote: "keys in scope; anyone: public chatflows with feedback on",
        responses: { 200: { description: "The stored feedback", schema: feedbackResponseSchema } },
        rateLimited: true,
      },
    },
    async ({ req, params, body, caller }) =>
      createFeedback(
        { ...body, chatflowId: chatflowIdOf(params.id, body.chatflowid) },
        { caller, origin: foreignOrigin(req), clientIp: clientIp(req) },
      ),
  ),
  corsOrigins,
);

/** PUT /api/v1/feedback/{feedbackId}: the comment typed after a thumb, or a changed rating. */
export const PUT = withCors(
  route(
    {
      auth: runChatflow,
      params: idParams,
      body: { json: updateFeedbackSchema, maxBytes: MAX_BODY },
      docs: {
        tag: "Feedback",
        summary: "Change the feedback `{id}`: the comment typed after a thumb, or the rating",
        description:
          "The widget sends the comment typed after a thumb; `chatflowid`, `chatId` and `messageId`, when echoed back, must name the feedback's own.",
        callersNote: "as for rating; `{id}` is the feedback's",
        responses: { 200: { description: "The feedback", schema: feedbackResponseSchema } },
        rateLimited: true,
      },
    },
    async ({ req, params, body, caller }) =>
      updateFeedback(params.id, body, { caller, origin: foreignOrigin(req), clientIp: clientIp(req) }),
  ),
  corsOrigins,
);

/** GET /api/v1/feedback/{chatflowid}: the chatflow's feedback, for the Message API's readers (admins). */
export const GET = route(
  {
    auth: messageAdmins,
    params: idParams,
    query: listFeedbackQuery,
    docs: {
      tag: "Feedback",
      summary: "A chatflow's feedback (Flowise's filters)",
      description: "Filters: `chatId`, `startDate`, `endDate`; `sortOrder` ASC (default) or DESC by creation time.",
      responses: {
        200: {
          description: "Feedback, oldest first unless sortOrder=DESC",
          schema: z.array(feedbackResponseSchema),
          headers: PAGE_HEADER_DOCS,
        },
      },
    },
  },
  async ({ req, params, query: { limit, cursor, ...filters }, caller }) =>
    pagedArray(req, await listFeedback(params.id, filters, caller, pageOfQuery({ limit, cursor }))),
);

export const { PATCH, DELETE } = refuseOtherMethods("GET", "POST", "PUT");
