import { idParams, route } from "@/lib/http/route";
import { manageChatflows } from "@/common/access/permissions";
import { getChatflowOrThrow } from "@/lib/services/chatflows";
import { checkGraph } from "@/lib/services/flows";
import { refuseOtherMethods } from "@/lib/http/methods";

/** The saved graph's problems, node by node, without running it: `{ valid, problems: [{code, nodeId?, input?, params, message}] }`. */
export const GET = route({ auth: manageChatflows, params: idParams }, async ({ params, caller }) =>
  checkGraph((await getChatflowOrThrow(params.id, caller)).graph),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
