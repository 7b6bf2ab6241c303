import type { PageRequest } from "@/common/schemas/pagination";
import { AppError } from "@/common/errors";
import type { Chatflow } from "../db/generated/client";
import { deleteChatflowById, findChatflowById, listChatflows } from "../db/queries/chatflows";
import {
  insertChatflowWithVersion,
  updateChatflowWithVersion,
  type VersionAuthor,
} from "../db/queries/chatflow-versions";
import { findUserById } from "../db/queries/users";
import { forbiddenOverrideNames } from "../nodes/overridable";
import type { Caller } from "@/common/access/callers";
import {
  actingUserId,
  assertChatflowInScope,
  assertMay,
  chatflowScope,
  mayAct,
  ownerFilter,
  type Action,
} from "@/common/access/permissions";
import type { ChatflowType, CreateChatflowInput, UpdateChatflowInput } from "@/common/schemas/chatflow";
import { Cache, on, PROCESS_STATE, processState, publishChange, stateBus } from "../state";
import { getDefinition } from "../nodes/registry";
import type { Graph } from "@/common/schemas/graph";
import { assertMayUseCredentials } from "./credentials";
import { removeChatflowUploads } from "./chatflow-files";

const EMPTY_GRAPH = { nodes: [], edges: [] };

/**
 * Chatflow rows for the prediction path ("chatflowRows" in lib/state/catalogue.ts). Made on first
 * use, not at import: the bus reads the environment, and start-up must be able to import services
 * before it reports a wrong setting in one line.
 */
const chatflowCache = () =>
  processState("chatflowRows", () => {
    const cache = new Cache<Chatflow>(PROCESS_STATE.chatflowRows.cache);
    stateBus().subscribe(
      on({
        "chatflow.saved": (e) => cache.delete(e.chatflowId),
        "chatflow.deleted": (e) => cache.delete(e.chatflowId),
        "user.deleted": () => cache.clear(), // their chatflows changed owner
        "state.resync": () => cache.clear(),
      }),
    );
    return cache;
  });

/** Like getChatflowOrThrow, but served from a short-lived cache (the prediction hot path). */
export async function getChatflowForRun(id: string): Promise<Chatflow> {
  const row = await chatflowCache().get(id, () => findChatflowById({ id }));
  if (!row) throw new AppError("not_found", `Chatflow ${id} not found.`);
  return row;
}

/** The API's view of a chatflow. */
export function toChatflowDto(row: Chatflow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    version: row.version,
    publishedVersion: row.publishedVersion,
    requirePassingTests: row.requirePassingTests,
    graph: row.graph,
    isPublic: row.isPublic,
    allowedOrigins: row.allowedOrigins,
    rateLimit:
      row.rateLimitMax && row.rateLimitWindowSec ? { max: row.rateLimitMax, windowSec: row.rateLimitWindowSec } : null,
    overrideAllowList: row.overrideAllowList,
    chatbotConfig: row.chatbotConfig,
    speechToText: row.speechToText,
    ownerId: row.ownerId,
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
  if (input.requirePassingTests !== undefined) data.requirePassingTests = input.requirePassingTests;
  return data;
}

/**
 * Whether a save changes what a version holds (the graph or the run settings: override allow-list,
 * speech-to-text): then it stores a new version. The chatbot's settings (chatbotConfig: title,
 * welcome, starters, theme, feedback, leads, tool calls shown) are not versioned: like the public
 * switch they apply at once, as Flowise's chatbotConfig does.
 */
function savesVersion(input: Partial<CreateChatflowInput>): boolean {
  return input.graph !== undefined || input.overrideAllowList !== undefined || input.speechToText !== undefined;
}

/** Who saves a version: a user by name; a key by its prefix (and its owner as the author id). */
export function versionAuthor(caller: Caller, message = ""): VersionAuthor {
  const authorId = actingUserId(caller);
  if (caller.kind === "user") return { authorId, authorName: caller.user.name, message };
  if (caller.kind === "apiKey") return { authorId, authorName: `API key ${caller.key.prefix}`, message };
  return { authorId: null, authorName: "", message };
}

/**
 * Chatflows the caller can see (builders: their own; keys: their owner's, in scope), newest first;
 * `type` keeps one kind (Flowise's `?type=AGENTFLOW`).
 */
export async function listChatflowsFor(caller: Caller, filter: { type?: ChatflowType } = {}, page?: PageRequest) {
  return listChatflows({
    ids: chatflowScope(caller),
    ownerId: ownerFilter(caller, "chatflow.list"),
    ...(filter.type ? { type: filter.type } : {}),
    page,
  });
}

/**
 * Loads a chatflow the caller may `action` on. Another user's chatflow answers 404 like an unknown
 * id (ids are no oracle); an API key scoped to other chatflows gets 403.
 */
export async function getChatflowOrThrow(
  id: string,
  caller?: Caller,
  action: Action = "chatflow.read",
): Promise<Chatflow> {
  if (caller) {
    assertChatflowInScope(caller, id);
    // Not allowed on any chatflow (e.g. a `domains` key analysing without `predict`): 403, no lookup.
    assertMay(caller, action, `do '${action}' on chatflows${caller.kind === "apiKey" ? " with this API key" : ""}`);
  }
  const row = await findChatflowById({ id });
  if (!row || (caller && !mayAct(caller, action, row.ownerId)))
    throw new AppError("not_found", `Chatflow ${id} not found.`);
  return row;
}

/**
 * Refuses a new graph holding node types we do not have, naming each: a Flowise graph posted here
 * would otherwise be saved with every node's type lost (Flowise nodes are all "customNode") and
 * could never run. Flowise chatflows go through the import, which maps them or says what it cannot.
 */
function assertOurNodeTypes(graph: Graph | undefined): void {
  const details = (graph?.nodes ?? []).flatMap((n, i) =>
    getDefinition(n.type)
      ? []
      : [{ field: `body.graph.nodes.${i}.type`, message: `"${n.type.slice(0, 100)}" is not a node type of ours` }],
  );
  if (!details.length) return;
  throw new AppError(
    "validation_failed",
    `${details.map((d) => `${d.field}: ${d.message}`).join("; ")}. GET /api/v1/nodes lists our node types; ` +
      "a Flowise chatflow is imported with POST /api/v1/chatflows/import, which maps its nodes or lists what it cannot.",
    { details },
  );
}

/**
 * 400 for allow-list names that choose where requests go or what runs: they can never be overridden
 * per request (the list comes from the node registry, so the shared body schema cannot check it).
 */
function refuseNeverOverridable(list: readonly string[] | undefined): void {
  const forbidden = forbiddenOverrideNames(list ?? []);
  if (!forbidden.length) return;
  const message = `${forbidden.join(", ")} choose where requests go or what runs and can never be overridden per request`;
  throw new AppError("validation_failed", `body.overrideAllowList: ${message}.`, {
    details: [{ field: "body.overrideAllowList", path: ["overrideAllowList"], code: "custom", message }],
  });
}

/** Creates a chatflow owned by the caller (a key: its owner). Keys scoped to chosen chatflows cannot. */
export async function createChatflow(input: CreateChatflowInput, caller: Caller) {
  if (chatflowScope(caller))
    throw new AppError("forbidden", "A key scoped to chosen chatflows cannot create chatflows.");
  assertOurNodeTypes(input.graph);
  refuseNeverOverridable(input.overrideAllowList);
  await assertMayUseCredentials(caller, input.graph, input.speechToText);
  const ownerId = actingUserId(caller);
  const { versionMessage, type, ...fields } = input;
  const data = {
    graph: EMPTY_GRAPH,
    ...(type ? { type } : {}),
    ...toColumns(fields),
    ...(ownerId ? { owner: { connect: { id: ownerId } } } : {}),
  };
  const author = versionAuthor(caller, versionMessage ?? "");
  return toChatflowDto(await insertChatflowWithVersion({ data: data as never, author }));
}

/** The new owner of a transfer (admins only): 400 when no such user exists. */
async function transferTarget(ownerId: string | undefined, caller: Caller) {
  if (ownerId === undefined) return {};
  assertMay(caller, "chatflow.transfer", "transfer a chatflow to another owner (admins only)");
  if (!(await findUserById({ id: ownerId })))
    throw new AppError("validation_failed", `body.ownerId: user ${ownerId} does not exist.`);
  return { ownerId };
}

/**
 * Saves changes; a save of the graph or run settings stores them as a new version (the draft) with
 * `versionMessage`. 409 when `expectedVersion` is no longer the latest version.
 */
export async function updateChatflow(id: string, input: UpdateChatflowInput, caller: Caller) {
  const current = await getChatflowOrThrow(id, caller, "chatflow.update");
  const { expectedVersion, ownerId, versionMessage, ...fields } = input;
  refuseNeverOverridable(fields.overrideAllowList);
  if (versionMessage !== undefined && !savesVersion(fields))
    throw new AppError(
      "validation_failed",
      "body.versionMessage: a message is stored with a new version, and only a save of the graph or run settings " +
        "(overrideAllowList, speechToText) makes one.",
      { details: [{ field: "body.versionMessage", message: "needs graph, overrideAllowList or speechToText" }] },
    );
  const owner = await transferTarget(ownerId, caller);
  await assertMayUseCredentials(caller, fields.graph, fields.speechToText);
  const row = await updateChatflowWithVersion({
    id,
    data: { ...toColumns(fields), ...owner } as never,
    expectedVersion,
    ...(savesVersion(fields) ? { newVersion: versionAuthor(caller, versionMessage ?? "") } : {}),
  });
  await publishChange({ type: "chatflow.saved", chatflowId: id });
  if (row) return toChatflowDto(row);
  if (expectedVersion !== undefined) {
    const latest = await findChatflowById({ id });
    if (latest) {
      throw new AppError(
        "conflict",
        `Chatflow was saved elsewhere (version ${latest.version}, you had ${expectedVersion}). Reload to see the latest.`,
        {
          details: { currentVersion: latest.version },
        },
      );
    }
  }
  throw new AppError("not_found", `Chatflow ${current.id} not found.`);
}

/** Deletes a chatflow with its messages, key scopes and stored files. */
export async function deleteChatflow(id: string, caller: Caller) {
  await getChatflowOrThrow(id, caller, "chatflow.delete");
  await deleteChatflowById({ id });
  await publishChange({ type: "chatflow.deleted", chatflowId: id });
  await removeChatflowUploads(id);
  return { deleted: true, id };
}
