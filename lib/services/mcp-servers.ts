import { randomBytes } from "node:crypto";
import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import type { CreateMcpServerBody, McpServerConfig, UpdateMcpServerBody } from "@/common/schemas/mcp-server";
import type { Chatflow, McpServer } from "../db/generated/client";
import { findMcpServerRow, updateMcpServerRow, upsertMcpServerRow } from "../db/queries/mcp-servers";
import { hashApiKey } from "../security/api-keys";
import { getChatflowOrThrow } from "./chatflows";

/**
 * A chatflow served as an MCP server (Flowise's `/api/v1/mcp-server/{id}`): its managers enable it
 * (a new token, shown in that answer only), name the tool, rotate the token and disable it. Only the
 * token's SHA-256 is stored, like an API key's; disabling forgets it, so enabling again makes a new one.
 */

const TOKEN_PREFIX = "sy_mcp_";
const HINT_LENGTH = TOKEN_PREFIX.length + 6;

/** A new random token (256 bits) with its hash and hint. */
function newToken() {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { token, tokenHash: hashApiKey(token), tokenHint: token.slice(0, HINT_LENGTH) };
}

/** The path MCP clients connect to. */
export const mcpEndpointOf = (chatflowId: string) => `/api/v1/mcp/${chatflowId}`;

/** A tool name from the flow's name: MCP's characters kept, others as `_` (at most 64). */
export function defaultToolName(flowName: string): string {
  const name = flowName
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64);
  return name || "ask_flow";
}

/** A tool description from the flow's: its own, or a sentence naming the flow. */
export function defaultToolDescription(flow: Pick<Chatflow, "name" | "description">): string {
  const own = flow.description.trim();
  return (own || `Ask the flow "${flow.name}" a question and get its answer.`).slice(0, 1000);
}

function configOf(chatflowId: string, row: McpServer | null, flow: Chatflow, token?: string): McpServerConfig {
  return {
    chatflowId,
    enabled: row?.enabled ?? false,
    toolName: row?.toolName ?? defaultToolName(flow.name),
    description: row?.description ?? defaultToolDescription(flow),
    allowedOrigins: row?.allowedOrigins ?? [],
    endpoint: mcpEndpointOf(chatflowId),
    tokenHint: row?.enabled ? row.tokenHint : "",
    ...(token ? { token } : {}),
    createdAt: row?.createdAt.toISOString() ?? null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

const managed = (chatflowId: string, caller: Caller) => getChatflowOrThrow(chatflowId, caller, "chatflow.mcpServer");

/** GET: the flow's MCP server settings (never the token); defaults from the flow when never enabled. */
export async function getMcpServerConfig(chatflowId: string, caller: Caller): Promise<McpServerConfig> {
  const flow = await managed(chatflowId, caller);
  return configOf(chatflowId, await findMcpServerRow({ chatflowId }), flow);
}

/** POST: enables the flow's MCP server with a new token (in this answer only). 409 when it is enabled. */
export async function enableMcpServer(
  chatflowId: string,
  body: CreateMcpServerBody,
  caller: Caller,
): Promise<McpServerConfig> {
  const flow = await managed(chatflowId, caller);
  const existing = await findMcpServerRow({ chatflowId });
  if (existing?.enabled)
    throw new AppError(
      "conflict",
      "This flow's MCP server is already enabled: PUT changes it, POST …/refresh makes a new token.",
    );
  const { token, tokenHash, tokenHint } = newToken();
  const row = await upsertMcpServerRow({
    chatflowId,
    data: {
      enabled: true,
      toolName: body.toolName ?? existing?.toolName ?? defaultToolName(flow.name),
      description: body.description ?? existing?.description ?? defaultToolDescription(flow),
      allowedOrigins: body.allowedOrigins ?? existing?.allowedOrigins ?? [],
      tokenHash,
      tokenHint,
    },
  });
  return configOf(chatflowId, row, flow, token);
}

const notSetUp = (chatflowId: string) =>
  new AppError(
    "not_found",
    `Chatflow ${chatflowId} has no MCP server: POST /api/v1/mcp-server/${chatflowId} enables one.`,
  );

/**
 * PUT: changes the tool's name, description or allowed origins; `enabled: false` disables it (the
 * token is forgotten), `enabled: true` enables a disabled one with a new token (in this answer only).
 */
export async function updateMcpServer(
  chatflowId: string,
  body: UpdateMcpServerBody,
  caller: Caller,
): Promise<McpServerConfig> {
  const flow = await managed(chatflowId, caller);
  const existing = await findMcpServerRow({ chatflowId });
  if (!existing) throw notSetUp(chatflowId);
  const { enabled, ...fields } = body;
  const fresh = enabled === true && !existing.enabled ? newToken() : undefined;
  const off = enabled === false ? { enabled: false, tokenHash: "", tokenHint: "" } : {};
  const row = await updateMcpServerRow({
    chatflowId,
    data: {
      ...fields,
      ...off,
      ...(fresh ? { enabled: true, tokenHash: fresh.tokenHash, tokenHint: fresh.tokenHint } : {}),
    },
  });
  if (!row) throw notSetUp(chatflowId);
  return configOf(chatflowId, row, flow, fresh?.token);
}

/** DELETE: disables the flow's MCP server (its endpoint answers 404, its token is forgotten). */
export async function disableMcpServer(chatflowId: string, caller: Caller): Promise<McpServerConfig> {
  const flow = await managed(chatflowId, caller);
  const row = await updateMcpServerRow({ chatflowId, data: { enabled: false, tokenHash: "", tokenHint: "" } });
  return configOf(chatflowId, row, flow);
}

/** POST …/refresh: a new token (in this answer only); the old one stops working at once. */
export async function rotateMcpToken(chatflowId: string, caller: Caller): Promise<McpServerConfig> {
  const flow = await managed(chatflowId, caller);
  const existing = await findMcpServerRow({ chatflowId });
  if (!existing?.enabled) throw notSetUp(chatflowId);
  const { token, tokenHash, tokenHint } = newToken();
  const row = await updateMcpServerRow({ chatflowId, data: { tokenHash, tokenHint } });
  if (!row) throw notSetUp(chatflowId);
  return configOf(chatflowId, row, flow, token);
}
