import { z } from "zod";
import { originSchema } from "./chatflow";

/**
 * A chatflow served as an MCP server (Flowise's `/api/v1/mcp-server/{id}`): one tool at
 * `/api/v1/mcp/{chatflowId}`, called with a bearer token of its own. The token is in the answer only
 * when one is made (enabling, rotating); only its hash is stored.
 */

/** MCP's tool-name characters (letters, digits, `_`, `-`, `.`); at most 64, what clients show in full. */
export const mcpToolNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1 to 64 letters, digits, '_', '-' or '.' (MCP's tool-name characters)");

const description = z.string().trim().min(1, "must not be empty").max(1000);

export const createMcpServerSchema = z
  .object({
    /** Default: the flow's name, its spaces and other characters as `_`. */
    toolName: mcpToolNameSchema.optional(),
    /** Default: the flow's description, or a sentence naming the flow. */
    description: description.optional(),
    /** Browser origins that may call the endpoint (default none: requests with an Origin header are refused). */
    allowedOrigins: z.array(originSchema).max(100).optional(),
  })
  .strict()
  .meta({ id: "McpServerCreate" });

export const updateMcpServerSchema = z
  .object({
    toolName: mcpToolNameSchema.optional(),
    description: description.optional(),
    /** false disables the server (like DELETE); true enables a disabled one with a new token. */
    enabled: z.boolean().optional(),
    allowedOrigins: z.array(originSchema).max(100).optional(),
  })
  .strict()
  .meta({ id: "McpServerUpdate" });

export const mcpServerConfigSchema = z
  .object({
    chatflowId: z.string(),
    enabled: z.boolean(),
    toolName: z.string(),
    description: z.string(),
    allowedOrigins: z.array(z.string()),
    /** The path MCP clients connect to (Streamable HTTP). */
    endpoint: z.string(),
    /** The token's first characters, to tell tokens apart; empty while disabled. */
    tokenHint: z.string(),
    /** The bearer token, only in the answer that made it (enabling, rotating): store it now. */
    token: z.string().optional(),
    createdAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: "McpServerConfig" });

export type CreateMcpServerBody = z.output<typeof createMcpServerSchema>;
export type UpdateMcpServerBody = z.output<typeof updateMcpServerSchema>;
export type McpServerConfig = z.output<typeof mcpServerConfigSchema>;

/** A JSON-RPC 2.0 message to an MCP server (initialize, tools/list, tools/call, notifications), or a batch. */
const jsonRpcMessageSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number()]).optional(),
    method: z.string(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: "JsonRpcMessage" });

export const mcpRequestSchema = z
  .union([jsonRpcMessageSchema, z.array(jsonRpcMessageSchema)])
  .meta({ id: "McpRequest" });

/** A JSON-RPC 2.0 answer: `result` (initialize, tools/list, tools/call) or `error`. */
export const mcpResponseSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.number(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional(),
  })
  .meta({ id: "McpResponse" });
