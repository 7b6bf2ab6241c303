import { mcpEndpoint } from "@/lib/http/mcp";
import { refuseOtherMethods } from "@/lib/http/methods";
import { preflight, withCors, type OriginResolver } from "@/lib/http/cors";
import { mcpAllowedOrigins } from "@/lib/services/mcp-tool";

/** Pages on the origins a flow's MCP settings allow may call it (CORS); the endpoint refuses the rest. */
const corsOrigins: OriginResolver = (params) =>
  typeof params.chatflowId === "string" ? mcpAllowedOrigins(params.chatflowId) : Promise.resolve([]);

export const POST = withCors(mcpEndpoint(), corsOrigins);
export const OPTIONS = preflight(corsOrigins, ["POST"], "authorization, content-type, mcp-protocol-version");

// Stateless: no server-sent stream to open with GET and no session to end with DELETE, which
// Streamable HTTP answers with 405.
export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
