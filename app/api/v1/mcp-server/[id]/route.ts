import { idParams, route } from "@/lib/http/route";
import { manageMcpServers } from "@/common/access/permissions";
import { createMcpServerSchema, mcpServerConfigSchema, updateMcpServerSchema } from "@/common/schemas/mcp-server";
import { disableMcpServer, enableMcpServer, getMcpServerConfig, updateMcpServer } from "@/lib/services/mcp-servers";
import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";

const config = (description: string) => ({ 200: { description, schema: mcpServerConfigSchema } });

export const GET = route(
  {
    auth: manageMcpServers,
    params: idParams,
    docs: {
      tag: "MCP",
      summary: "Read a flow's MCP server settings",
      description:
        "Whether the flow is served as an MCP server, its tool's name and description, the allowed browser origins, the endpoint and the token's first characters (never the token). A flow never enabled answers `enabled: false` with the defaults enabling would use.",
      responses: config("The settings"),
    },
  },
  async ({ params, caller }) => getMcpServerConfig(params.id, caller),
);

export const POST = route(
  {
    auth: manageMcpServers,
    params: idParams,
    body: { json: createMcpServerSchema },
    idempotency: {},
    docs: {
      tag: "MCP",
      summary: "Enable a flow's MCP server",
      description:
        "Serves the flow as one MCP tool at `/api/v1/mcp/{id}` with a new token, in `token` of this answer only (only its hash is stored). The tool name defaults to the flow's name in MCP's characters, the description to the flow's. 409 when it is already enabled.",
      responses: { 201: { description: "The settings, with the token", schema: mcpServerConfigSchema } },
      errors: [409],
    },
  },
  async ({ params, body, caller }) => json(await enableMcpServer(params.id, body, caller), 201),
);

export const PUT = route(
  {
    auth: manageMcpServers,
    params: idParams,
    body: { json: updateMcpServerSchema },
    docs: {
      tag: "MCP",
      summary: "Change a flow's MCP server",
      description:
        "Any of tool name, description and allowed origins; `enabled: false` disables it (the token is forgotten), `enabled: true` enables a disabled one with a new token (in `token`, this answer only). 404 when it was never enabled.",
      responses: config("The settings"),
    },
  },
  async ({ params, body, caller }) => updateMcpServer(params.id, body, caller),
);

export const DELETE = route(
  {
    auth: manageMcpServers,
    params: idParams,
    docs: {
      tag: "MCP",
      summary: "Disable a flow's MCP server",
      description:
        "Its endpoint answers 404 from now on and its token is forgotten; the tool's name and description are kept for when it is enabled again.",
      responses: config("The settings, disabled"),
    },
  },
  async ({ params, caller }) => disableMcpServer(params.id, caller),
);

export const { PATCH } = refuseOtherMethods("GET", "POST", "PUT", "DELETE");
