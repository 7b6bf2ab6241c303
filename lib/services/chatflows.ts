import { AppError } from "../errors";
import type { Chatflow } from "../db/generated/client";
import {
  deleteChatflowById, findChatflowById, insertChatflow, listChatflows, updateChatflow as updateChatflowRow,
} from "../db/queries/chatflows";
import { assertChatflowInScope, chatflowScope, type Caller } from "../http/callers";
import type { CreateChatflowInput, UpdateChatflowInput } from "../schemas/chatflow";
import { TtlCache } from "../ttl-cache";
import { removeChatflowUploads } from "./chatflow-files";

const EMPTY_GRAPH = { nodes: [], edges: [] };

const holder = globalThis as unknown as { __switchyardChatflows?: TtlCache<Chatflow | null> };
/** Chatflow rows for the prediction path; saves and deletes in this process clear their entry. */
const chatflowCache = (holder.__switchyardChatflows ??= new TtlCache<Chatflow | null>(2_000));

/** Like getChatflowOrThrow, but served from a short-lived cache (the prediction hot path). */
export async function getChatflowForRun(id: string): Promise<Chatflow> {
  const row = await chatflowCache.get(id, () => findChatflowById({ id }));
  if (!row) throw new AppError("not_found", `Chatflow ${id} not found.`);
  return row;
}

/** The API's view of a chatflow. */
export function toChatflowDto(row: Chatflow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    graph: row.graph,
    isPublic: row.isPublic,
    allowedOrigins: row.allowedOrigins,
    rateLimit: row.rateLimitMax && row.rateLimitWindowSec ? { max: row.rateLimitMax, windowSec: row.rateLimitWindowSec } : null,
    overrideAllowList: row.overrideAllowList,
    chatbotConfig: row.chatbotConfig,
    speechToText: row.speechToText,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Maps validated input to columns, field by field (never the body as a whole). */
function toColumns(input: Partial<CreateChatflowInput>) {
  const data: Record<string, unknown> = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.description !== undefined) data.description = input.description;
  if (input.graph !== undefined) data.graph = input.graph;
  if (input.isPublic !== undefined) data.isPublic = input.isPublic;
  if (input.allowedOrigins !== undefined) data.allowedOrigins = [...new Set(input.allowedOrigins)];
  if (input.rateLimit !== undefined) {
    data.rateLimitMax = input.rateLimit?.max ?? null;
    data.rateLimitWindowSec = input.rateLimit?.windowSec ?? null;
  }
  if (input.overrideAllowList !== undefined) data.overrideAllowList = [...new Set(input.overrideAllowList)];
  if (input.chatbotConfig !== undefined) data.chatbotConfig = input.chatbotConfig;
  if (input.speechToText !== undefined) data.speechToText = input.speechToText;
  return data;
}

/** Chatflows the caller can see, newest first. */
export async function listChatflowsFor(caller: Caller) {
  return listChatflows({ ids: chatflowScope(caller) });
}

/** Loads a chatflow or throws 404; API keys scoped elsewhere get 403. */
export async function getChatflowOrThrow(id: string, caller?: Caller): Promise<Chatflow> {
  if (caller) assertChatflowInScope(caller, id);
  const row = await findChatflowById({ id });
  if (!row) throw new AppError("not_found", `Chatflow ${id} not found.`);
  return row;
}

/** Creates a chatflow. Keys scoped to chosen chatflows cannot create new ones. */
export async function createChatflow(input: CreateChatflowInput, caller: Caller) {
  if (chatflowScope(caller)) throw new AppError("forbidden", "A key scoped to chosen chatflows cannot create chatflows.");
  const row = await insertChatflow({ data: { graph: EMPTY_GRAPH, ...toColumns(input) } as never });
  return toChatflowDto(row);
}

/** Saves changes and bumps the version; 409 when `expectedVersion` is stale. */
export async function updateChatflow(id: string, input: UpdateChatflowInput, caller: Caller) {
  const current = await getChatflowOrThrow(id, caller);
  const { expectedVersion, ...fields } = input;
  const row = await updateChatflowRow({ id, data: toColumns(fields) as never, expectedVersion });
  chatflowCache.delete(id);
  if (row) return toChatflowDto(row);
  if (expectedVersion !== undefined) {
    const latest = await findChatflowById({ id });
    if (latest) {
      throw new AppError("conflict", `Chatflow was saved elsewhere (version ${latest.version}, you had ${expectedVersion}). Reload to see the latest.`, {
        details: { currentVersion: latest.version },
      });
    }
  }
  throw new AppError("not_found", `Chatflow ${current.id} not found.`);
}

/** Deletes a chatflow with its messages, key scopes and stored files. */
export async function deleteChatflow(id: string, caller: Caller) {
  await getChatflowOrThrow(id, caller);
  await deleteChatflowById({ id });
  chatflowCache.delete(id);
  await removeChatflowUploads(id);
  return { deleted: true, id };
}
