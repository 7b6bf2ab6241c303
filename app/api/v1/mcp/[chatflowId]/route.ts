import { mcpEndpoint } from "@/lib/http/mcp";
import { refuseOtherMethods } from "@/lib/http/methods";

export const POST = mcpEndpoint();

// Stateless: no server-sent stream to open with GET and no session to end with DELETE, which
// Streamable HTTP answers with 405.
export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
