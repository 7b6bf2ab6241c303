import { idParams, route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { deleteChatMessagesQuery, listChatMessagesQuery } from "@/common/schemas/chat-message";
import { messageAdmins } from "@/common/access/permissions";
import { deleteChatMessages, listChatMessages } from "@/lib/services/chat-messages";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/chatmessage/{chatflow_id}: matching messages as a JSON array; X-Total-Count holds all matches. */
export const GET = route(
  { auth: messageAdmins, params: idParams, query: listChatMessagesQuery },
  async ({ params, query, caller }) => {
    const { total, records } = await listChatMessages(params.id, query, caller);
    return json(records, 200, { "x-total-count": String(total), "access-control-expose-headers": "X-Total-Count" });
  },
);

/** DELETE /api/v1/chatmessage/{chatflow_id}: removes matching messages and their uploads; `{ deleted }`. */
export const DELETE = route(
  { auth: messageAdmins, params: idParams, query: deleteChatMessagesQuery },
  async ({ params, query, caller }) => deleteChatMessages(params.id, query, caller),
);

export const { POST, PUT, PATCH } = refuseOtherMethods("GET", "DELETE");
