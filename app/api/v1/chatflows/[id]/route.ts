import { idParams, route } from "@/lib/http/route";
import { updateChatflowSchema } from "@/common/schemas/chatflow";
import { deleteChatflow, getChatflowOrThrow, toChatflowDto, updateChatflow } from "@/lib/services/chatflows";
import { manageChatflows } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route({ auth: manageChatflows, params: idParams }, async ({ params, caller }) =>
  toChatflowDto(await getChatflowOrThrow(params.id, caller)),
);

export const PUT = route(
  { auth: manageChatflows, params: idParams, body: { json: updateChatflowSchema, maxBytes: 5 * 1024 * 1024 } },
  async ({ params, body, caller }) => updateChatflow(params.id, body, caller),
);

export const DELETE = route({ auth: manageChatflows, params: idParams }, async ({ params, caller }) =>
  deleteChatflow(params.id, caller),
);

export const { POST, PATCH } = refuseOtherMethods("GET", "PUT", "DELETE");
