import { nextPageHeaders, PAGE_HEADER_DOCS } from "@/lib/http/pagination";
import { idParams, route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { chatMessageRecordSchema, deleteChatMessagesQuery, listChatMessagesQuery } from "@/common/schemas/chat-message";
import { messageAdmins } from "@/common/access/permissions";
import { deleteChatMessages, listChatMessages } from "@/lib/services/chat-messages";
import { refuseOtherMethods } from "@/lib/http/methods";
import { deletedCountResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

/** GET /api/v1/chatmessage/{chatflow_id}: matching messages as a JSON array; X-Total-Count holds all matches. */
export const GET = route(
  {
    auth: messageAdmins,
    params: idParams,
    query: listChatMessagesQuery,
    docs: {
      tag: "Messages",
      summary: "A chatflow's messages",
      description: "A JSON array; the X-Total-Count header holds the number of all matches.",
      responses: {
        200: {
          description: "Matching messages",
          schema: z.array(chatMessageRecordSchema),
          headers: {
            "X-Total-Count": "The number of all matching messages (the array holds one page)",
            ...PAGE_HEADER_DOCS,
          },
        },
      },
    },
  },
  async ({ req, params, query, caller }) => {
    const { total, records, nextCursor } = await listChatMessages(params.id, query, caller);
    const next = nextPageHeaders(req, nextCursor);
    return json(records, 200, {
      ...next,
      "x-total-count": String(total),
      "access-control-expose-headers": ["X-Total-Count", next["access-control-expose-headers"]]
        .filter(Boolean)
        .join(", "),
    });
  },
);

/** DELETE /api/v1/chatmessage/{chatflow_id}: removes matching messages and their uploads; `{ deleted }`. */
export const DELETE = route(
  {
    auth: messageAdmins,
    params: idParams,
    query: deleteChatMessagesQuery,
    docs: {
      tag: "Messages",
      summary: "Delete a chatflow's matching messages and their uploads",
      description:
        "The same filters as listing (chat type, session, dates…); without filters every message of the chatflow goes. Answers how many were deleted.",
      responses: { 200: { description: "How many were deleted", schema: deletedCountResponseSchema } },
    },
  },
  async ({ params, query, caller }) => deleteChatMessages(params.id, query, caller),
);

export const { POST, PUT, PATCH } = refuseOtherMethods("GET", "DELETE");
