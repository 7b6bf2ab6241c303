import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";
import { errorResponseSchema } from "@/common/schemas/responses";
import { mcpRequestSchema, mcpResponseSchema } from "@/common/schemas/mcp-server";
import { clientIp } from "../access/client-ip";
import { childLogger } from "../log";
import { authorizeMcpCall, mcpServerOf } from "../services/mcp-tool";
import { errorResponse } from "./responses";
import { requestIdOf } from "./request-id";
import { refuseDeclaredTooLarge } from "./body";
import { finishRequest, parseWith } from "./route";
import { declareRoute } from "./route-options";
import type { RouteDocs } from "./route-docs";

/** The largest JSON-RPC body the endpoint reads (the SDK's transport answers 413 past it). */
const MAX_BODY_BYTES = 1024 * 1024;
const BODY = { json: mcpRequestSchema, maxBytes: MAX_BODY_BYTES };

const mcpParams = z.object({ chatflowId: z.uuid({ error: "must be a UUID" }) });

/** The transport's refusals answer JSON-RPC's error shape; ours (a malformed id) the API's. */
const jsonRpcError = (description: string) => ({
  description,
  schema: z.union([mcpResponseSchema, errorResponseSchema]),
});

const docs: RouteDocs = {
  tag: "MCP",
  summary: "Call a flow as an MCP server (Streamable HTTP)",
  description:
    "The Model Context Protocol's Streamable HTTP transport, stateless: `initialize`, `tools/list` and `tools/call` as JSON-RPC 2.0 over POST (send `Accept: application/json, text/event-stream`). The flow is one tool: `{ question }` for a chatflow, the Start form's fields for an agentflow started by a form; a call runs the published version and answers its text (a failed run is a result with `isError`). Authenticated by the flow's own MCP token (`Authorization: Bearer sy_mcp_…`, from POST /api/v1/mcp-server/{id}); wrong tokens count against the address (429 past the limit). A request with an `Origin` header is refused unless the flow's MCP settings allow that origin. GET and DELETE answer 405 (no server-sent stream, no sessions).",
  callersNote: "with the flow's MCP token as Bearer, not an API key",
  responses: {
    200: { description: "The JSON-RPC answer", schema: mcpResponseSchema },
    202: { description: "A notification or response accepted (no body)" },
  },
  errors: [401, 403, 404, 429],
  errorBodies: {
    400: jsonRpcError("A malformed message (a JSON-RPC parse error), or a malformed id"),
    406: jsonRpcError("Accept lacks application/json or text/event-stream (a JSON-RPC error)"),
    413: jsonRpcError("Body too large (a JSON-RPC error)"),
    415: jsonRpcError("Content-Type is not application/json (a JSON-RPC error)"),
  },
  rateLimited: true,
};

/**
 * POST /api/v1/mcp/{chatflowId}: the flow's token checked (lib/services/mcp-tool.ts), then a fresh
 * protocol server and stateless transport of the official SDK answer the request (JSON, not a stream)
 * and are closed. Our refusals (401/403/404/429) take the API's error shape; the transport's own
 * (malformed JSON-RPC, wrong Accept or Content-Type) take JSON-RPC's.
 */
export function mcpEndpoint() {
  const handle = async (req: Request, ctx?: { params: Promise<Record<string, string | string[]>> }) => {
    const started = performance.now();
    const requestId = requestIdOf(req);
    const log = childLogger({ requestId });
    let response: Response;
    try {
      // As route() does: a declared body past the cap is 413 before the token is even looked at.
      refuseDeclaredTooLarge(req, BODY);
      const { chatflowId } = parseWith(mcpParams, ctx ? await ctx.params : {}, "path") as z.infer<typeof mcpParams>;
      const ip = clientIp(req);
      const { chatflow, server } = await authorizeMcpCall({
        chatflowId,
        authorization: req.headers.get("authorization"),
        origin: req.headers.get("origin"),
        clientIp: ip,
      });
      const mcp = await mcpServerOf(chatflow, server, { clientIp: ip, requestId });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: MAX_BODY_BYTES,
      });
      await mcp.connect(transport);
      try {
        response = await transport.handleRequest(req);
      } finally {
        await mcp.close();
      }
    } catch (err) {
      response = errorResponse(err, log, requestId);
    }
    return finishRequest(req, response, { requestId, log, started });
  };
  return declareRoute(handle, {
    auth: "public",
    params: mcpParams,
    body: BODY,
    docs,
  });
}
