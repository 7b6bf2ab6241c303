import { idParams, route } from "@/lib/http/route";
import { manageChatflows } from "@/common/access/permissions";
import { getChatflowOrThrow } from "@/lib/services/chatflows";
import { checkGraph } from "@/lib/services/flows";
import { variableNames } from "@/lib/services/variables";
import { refuseOtherMethods } from "@/lib/http/methods";
import { graphCheckResponseSchema } from "@/common/schemas/responses";

/** The saved graph's problems, node by node, without running it: `{ valid, problems: [{code, nodeId?, input?, params, message}] }`. */
export const GET = route(
  {
    auth: manageChatflows,
    params: idParams,
    docs: {
      tag: "Chatflows",
      summary: "Check a saved graph without running it",
      description:
        "The same checks a run makes before it starts (missing inputs and credentials, connections, cycles; an agentflow's variables, global ones included), as data: each problem with its code, node and input.",
      responses: { 200: { description: "The graph's problems, node by node", schema: graphCheckResponseSchema } },
    },
  },
  async ({ params, caller }) => {
    const chatflow = await getChatflowOrThrow(params.id, caller);
    const variables = chatflow.type === "AGENTFLOW" ? await variableNames() : undefined;
    return checkGraph(chatflow.graph, chatflow.type, variables ? { variables } : {});
  },
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
