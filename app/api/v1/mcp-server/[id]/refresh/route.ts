import { idParams, route } from "@/lib/http/route";
import { manageMcpServers } from "@/common/access/permissions";
import { mcpServerConfigSchema } from "@/common/schemas/mcp-server";
import { rotateMcpToken } from "@/lib/services/mcp-servers";
import { refuseOtherMethods } from "@/lib/http/methods";

export const POST = route(
  {
    auth: manageMcpServers,
    params: idParams,
    docs: {
      tag: "MCP",
      summary: "Rotate a flow's MCP token",
      description:
        "A new token, in `token` of this answer only; the old one is refused from now on. 404 when the MCP server is not enabled.",
      responses: { 200: { description: "The settings, with the new token", schema: mcpServerConfigSchema } },
    },
  },
  async ({ params, caller }) => rotateMcpToken(params.id, caller),
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
