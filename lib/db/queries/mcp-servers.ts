import { getDb } from "../client";

/** Chatflows served as MCP servers (McpServer rows, one per chatflow at most). */

export type McpServerData = {
  enabled: boolean;
  toolName: string;
  description: string;
  tokenHash: string;
  tokenHint: string;
  allowedOrigins: string[];
};

export async function findMcpServerRow({ chatflowId }: { chatflowId: string }) {
  return (await getDb()).mcpServer.findUnique({ where: { chatflowId } });
}

/** Creates or replaces a chatflow's MCP server settings. */
export async function upsertMcpServerRow({ chatflowId, data }: { chatflowId: string; data: McpServerData }) {
  return (await getDb()).mcpServer.upsert({ where: { chatflowId }, create: { chatflowId, ...data }, update: data });
}

/** Changes a chatflow's MCP server settings; null when it has none. */
export async function updateMcpServerRow({ chatflowId, data }: { chatflowId: string; data: Partial<McpServerData> }) {
  const db = await getDb();
  const { count } = await db.mcpServer.updateMany({ where: { chatflowId }, data });
  return count ? db.mcpServer.findUnique({ where: { chatflowId } }) : null;
}
