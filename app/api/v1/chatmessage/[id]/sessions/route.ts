import { nextPageHeaders, PAGE_HEADER_DOCS } from "@/lib/http/pagination";
import { json } from "@/lib/http/responses";
import { idParams, route } from "@/lib/http/route";
import { listSessionsQuery } from "@/common/schemas/chat-message";
import { messageAdmins } from "@/common/access/permissions";
import { listSessions } from "@/lib/services/chat-messages";
import { refuseOtherMethods } from "@/lib/http/methods";
import { sessionsResponseSchema } from "@/common/schemas/responses";

/** GET /api/v1/chatmessage/{chatflow_id}/sessions: the Conversations view's session list. */
export const GET = route(
  {
    auth: messageAdmins,
    params: idParams,
    query: listSessionsQuery,
    docs: {
      tag: "Messages",
      summary: "A chatflow's conversations",
      description:
        "One entry per session: its chat type, first message, message count and first and last times, newest first, paged.",
      responses: { 200: { description: "Sessions, paged", schema: sessionsResponseSchema, headers: PAGE_HEADER_DOCS } },
    },
  },
  async ({ req, params, query, caller }) => {
    const sessions = await listSessions(params.id, query, caller);
    return json(sessions, 200, nextPageHeaders(req, sessions.nextCursor));
  },
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
