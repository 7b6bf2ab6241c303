import { McpServer as McpProtocolServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import type { PredictionBody } from "@/common/schemas/prediction";
import type { Chatflow, McpServer } from "../db/generated/client";
import { findMcpServerRow } from "../db/queries/mcp-servers";
import { findUserRole } from "../db/queries/users";
import { apiKeyMatches } from "../security/api-keys";
import { rateLimits } from "../access/rate-limit";
import { childLogger } from "../log";
import { type FormField, formFields } from "../nodes/start-agentflow/runtime";
import { getChatflowForRun } from "./chatflows";
import { loadChatflowVersion } from "./chatflow-versions";
import { startPrediction } from "./predictions";

/**
 * A flow as an MCP tool (`/api/v1/mcp/{chatflowId}`): who may call it (the flow's own token), the
 * tool (one per flow: `question` for a chatflow or a chat-started agentflow, the Start form's fields
 * for an agentflow started by a form), and a call, which is a prediction run of the published
 * version through the same pipeline as the prediction and OpenAI-compatible APIs.
 */

/** Wrong or missing tokens allowed from one address per window; past it every call from there is 429. */
export const MCP_AUTH_FAILURES_PER_IP = 30;
export const MCP_AUTH_WINDOW_MS = 10 * 60_000;
const failureKey = (ip: string) => `mcp-auth:${ip}`;

const serverNotFound = (id: string) => new AppError("not_found", `No MCP server is enabled for chatflow ${id}.`);

export type McpCallRequest = {
  chatflowId: string;
  /** The Authorization header as sent. */
  authorization: string | null;
  /** The browser's Origin header. */
  origin: string | null;
  clientIp: string;
};

/**
 * The flow and its MCP settings for a request, or the refusal: 429 when the address has sent too many
 * wrong tokens, 404 when the flow has no enabled MCP server, 403 for a browser origin not allowed,
 * 401 (counted against the address) for a missing or wrong token.
 */
export async function authorizeMcpCall(req: McpCallRequest): Promise<{ chatflow: Chatflow; server: McpServer }> {
  const limits = rateLimits();
  const wait = await limits.exceeded(failureKey(req.clientIp), MCP_AUTH_FAILURES_PER_IP, MCP_AUTH_WINDOW_MS);
  if (wait > 0)
    throw new AppError("rate_limited", `Too many wrong MCP tokens from your address; try again in ${wait} s.`, {
      headers: { "Retry-After": String(wait) },
    });
  const server = await findMcpServerRow({ chatflowId: req.chatflowId });
  if (!server?.enabled || !server.tokenHash) throw serverNotFound(req.chatflowId);
  if (req.origin && !server.allowedOrigins.includes(req.origin))
    throw new AppError(
      "forbidden",
      `Origin ${req.origin} may not call this MCP server (allow it in the flow's MCP settings).`,
    );
  const [scheme, token = ""] = (req.authorization ?? "").trim().split(/\s+/, 2);
  if (scheme.toLowerCase() !== "bearer" || !apiKeyMatches(token, server.tokenHash)) {
    await limits.hit(failureKey(req.clientIp), MCP_AUTH_FAILURES_PER_IP, MCP_AUTH_WINDOW_MS);
    throw new AppError("unauthorized", "Send this flow's MCP token: Authorization: Bearer <token>.", {
      headers: { "WWW-Authenticate": 'Bearer realm="mcp"' },
    });
  }
  return { chatflow: await getChatflowForRun(req.chatflowId), server };
}

/** The browser origins a flow's MCP settings allow (none for an unknown id or a disabled server). */
export async function mcpAllowedOrigins(chatflowId: string): Promise<string[]> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(chatflowId)) return [];
  const server = await findMcpServerRow({ chatflowId });
  return server?.enabled ? server.allowedOrigins : [];
}

type ToolInput = { kind: "question" } | { kind: "form"; fields: FormField[] };

/** What the tool takes: the published version's Start form's fields, else a question. */
async function toolInputOf(chatflow: Chatflow): Promise<ToolInput> {
  if (chatflow.type !== "AGENTFLOW") return { kind: "question" };
  const published = await loadChatflowVersion(chatflow.id, "published");
  const graph = published.graph as { nodes?: { type?: string; data?: { inputs?: Record<string, unknown> } }[] };
  const inputs = graph.nodes?.find((n) => n.type === "startAgentflow")?.data?.inputs ?? {};
  const fields = inputs.startInputType === "formInput" ? formFields(inputs.formInputTypes) : [];
  return fields.length ? { kind: "form", fields } : { kind: "question" };
}

function fieldSchema(field: FormField): z.ZodType {
  const base =
    field.type === "number"
      ? z.number()
      : field.type === "boolean"
        ? z.boolean()
        : field.type === "options" && field.options.length
          ? z.enum(field.options as [string, ...string[]])
          : z.string();
  return base.describe(field.label);
}

function inputSchemaOf(input: ToolInput): z.ZodObject<Record<string, z.ZodType>> {
  if (input.kind === "question")
    return z.object({ question: z.string().min(1).describe("The question or message for the flow") });
  return z.object(Object.fromEntries(input.fields.map((f) => [f.name, fieldSchema(f)])));
}

/**
 * The run's caller: the flow's owner through a key holding `predict` on this flow only, so the
 * prediction pipeline checks it as it checks any key (the owner's current role; unowned flows: admins).
 */
async function callerFor(chatflow: Chatflow): Promise<Caller> {
  const ownerRole = chatflow.ownerId ? ((await findUserRole({ id: chatflow.ownerId })) ?? "builder") : "admin";
  return {
    kind: "apiKey",
    key: {
      id: `mcp:${chatflow.id}`,
      prefix: "mcp",
      permissions: ["predict"],
      allChatflows: false,
      chatflowIds: [chatflow.id],
      ownerId: chatflow.ownerId,
      ownerRole,
    },
  };
}

const textResult = (text: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text }],
  ...(isError ? { isError: true } : {}),
});

/**
 * One tool call: a prediction of the published version, answered with its text. A failed run (the
 * model down, a form field refused) is a tool result with `isError`, which the client's model reads.
 */
export async function callFlowTool(
  chatflow: Chatflow,
  input: ToolInput,
  args: Record<string, unknown>,
  ctx: { clientIp: string; requestId?: string; signal?: AbortSignal },
): Promise<CallToolResult> {
  const body: PredictionBody =
    input.kind === "question" ? { question: String(args.question ?? "") } : { form: args, question: "" };
  try {
    const run = await startPrediction(
      {
        chatflowId: chatflow.id,
        body,
        caller: await callerFor(chatflow),
        origin: null,
        clientIp: ctx.clientIp,
        ...(ctx.requestId ? { requestId: ctx.requestId } : {}),
      },
      "EXTERNAL",
    );
    const result = await run.execute(ctx.signal ? { signal: ctx.signal } : {});
    return textResult(result.text);
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return textResult(err.message, true);
    if (err instanceof AppError) return textResult(`The flow failed: ${err.message}`, true);
    // A bug of ours: logged with the request id, never its message to the caller.
    childLogger({ requestId: ctx.requestId }).error({ err, chatflowId: chatflow.id }, "MCP tool call failed");
    return textResult(`The flow failed with an internal error (request ${ctx.requestId ?? "unknown"}).`, true);
  }
}

/** The MCP protocol server of one flow (the SDK's): its one tool, answering through callFlowTool. */
export async function mcpServerOf(
  chatflow: Chatflow,
  server: Pick<McpServer, "toolName" | "description">,
  ctx: { clientIp: string; requestId?: string },
): Promise<McpProtocolServer> {
  const input = await toolInputOf(chatflow);
  const mcp = new McpProtocolServer({ name: `switchyard-${server.toolName}`, version: "1.0.0" });
  mcp.registerTool(
    server.toolName,
    { title: chatflow.name, description: server.description, inputSchema: inputSchemaOf(input) },
    (args: Record<string, unknown>, extra: { signal: AbortSignal }) =>
      callFlowTool(chatflow, input, args, { ...ctx, signal: extra.signal }),
  );
  return mcp;
}
