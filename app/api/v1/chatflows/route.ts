import { route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { manageChatflows } from "@/common/access/permissions";
import { createChatflowSchema } from "@/common/schemas/chatflow";
import { createChatflow, listChatflowsFor } from "@/lib/services/chatflows";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route({ auth: manageChatflows }, async ({ caller }) => listChatflowsFor(caller));

export const POST = route({ auth: manageChatflows, body: { json: createChatflowSchema } }, async ({ body, caller }) =>
  json(await createChatflow(body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
