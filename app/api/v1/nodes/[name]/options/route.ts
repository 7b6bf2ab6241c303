import { z } from "zod";
import { importChatflows } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { loadNodeOptions, nodeOptionsBodySchema } from "@/lib/services/node-options";

const nodeOptionsResponseSchema = z.object({
  options: z.array(z.object({ name: z.string(), label: z.string(), description: z.string().optional() })),
});

/** The choices of a node's param that come from the server it connects to (an MCP server's tools). */
export const POST = route(
  {
    auth: importChatflows,
    params: z.object({ name: z.string().min(1).max(100) }),
    body: { json: nodeOptionsBodySchema },
    docs: {
      tag: "Chatflows",
      summary: "Load a node param's options from its server",
      description:
        "For params whose choices come from what the node connects to (the MCP Tools node's `tools`: the server's tools). `params` are the node's params as the builder has them; credentials are resolved as the caller may use them and requests follow the outbound rules. A server that is down or answers garbage is 502, a silent one 504, naming it.",
      responses: { 200: { description: "The choices", schema: nodeOptionsResponseSchema } },
    },
  },
  async ({ params, body, caller }) => loadNodeOptions(params.name, body, caller),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
