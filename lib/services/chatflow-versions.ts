import type { PageRequest } from "@/common/schemas/pagination";
import { AppError } from "@/common/errors";
import type { Chatflow, ChatflowVersion } from "../db/generated/client";
import { findChatflowVersion, listChatflowVersions, setPublishedVersion } from "../db/queries/chatflow-versions";
import { findCredentialNames } from "../db/queries/credentials";
import type { Caller } from "@/common/access/callers";
import { mayAct } from "@/common/access/permissions";
import { Cache, on, PROCESS_STATE, processState, publishChange, stateBus } from "../state";
import { diffVersions } from "./chatflow-diff";
import { parseStoredJson } from "../db/stored-json";
import { graphSchema } from "@/common/schemas/graph";
import { getChatflowForRun, getChatflowOrThrow, updateChatflow } from "./chatflows";
import { assertPublishable } from "./publish-gate";
import { lastTestRunsOf } from "./chatflow-tests/last-runs";

/**
 * Versions of a chatflow: every save of its graph or run settings (override allow-list,
 * speech-to-text) is stored as an immutable ChatflowVersion numbered 1, 2, 3…; the
 * chatflow row always holds the latest one (the draft: `version` is its number) and names the
 * published one (`publishedVersion`, null: never published, the latest runs). The chatbot's settings
 * (chatbotConfig) are the row's, like the public switch: they apply at once, whatever version runs.
 * A version row still records them as they were at its save, for the record only. See
 * /work/notes/versions-api.md for how the tests feature plugs in.
 */

/** Which version to run: a number, the draft (latest) or the published one (else the latest). */
export type VersionSelector = number | "draft" | "published";

/** Version rows by chatflow id + number (immutable, so they stay until the chatflow goes); made on first use. */
const versionCache = () =>
  processState("chatflowVersions", () => {
    const cache = new Cache<ChatflowVersion>(PROCESS_STATE.chatflowVersions.cache);
    stateBus().subscribe(
      on({
        "chatflow.deleted": (e) => cache.deleteWhere((v) => v.chatflowId === e.chatflowId),
        "state.resync": () => cache.clear(),
      }),
    );
    return cache;
  });

/** The number a selector names on this chatflow row. */
export function selectedVersion(row: Pick<Chatflow, "version" | "publishedVersion">, selector: VersionSelector) {
  if (selector === "draft") return row.version;
  if (selector === "published") return row.publishedVersion ?? row.version;
  return selector;
}

/**
 * The chatflow as it runs at a version: the row with the version's graph, run settings and number
 * in place of the latest's (access and chatbot settings — public, origins, rate limit, owner,
 * chatbotConfig — are the row's: they are not versioned). The draft is the row itself, so the usual case costs nothing; an older
 * version is read once and then cached. 404 for a version that does not exist.
 */
export async function chatflowAtVersion(row: Chatflow, selector: VersionSelector): Promise<Chatflow> {
  const n = selectedVersion(row, selector);
  if (n === row.version) return row;
  const v =
    // Above row.version too: a row cached in this process may lag a save made in another one.
    Number.isInteger(n) && n >= 1
      ? await versionCache().get(`${row.id}:${n}`, () => findChatflowVersion({ chatflowId: row.id, version: n }))
      : null;
  if (!v) throw new AppError("not_found", `Chatflow ${row.id} has no version ${n}.`);
  return {
    ...row,
    version: v.version,
    graph: v.graph,
    overrideAllowList: v.overrideAllowList,
    speechToText: v.speechToText,
  };
}

/**
 * The chatflow at a version, for runs outside a request (the test runner): no caller check, the
 * row from the prediction path's cache. 404 for an unknown chatflow or version.
 */
export async function loadChatflowVersion(chatflowId: string, selector: VersionSelector): Promise<Chatflow> {
  return chatflowAtVersion(await getChatflowForRun(chatflowId), selector);
}

/**
 * Which version a request (prediction, vector upsert) runs: the published one, unless the caller
 * pins one (`?version=N` or `draft`), which only the chatflow's managers may (studio session, admin Basic, a key with
 * `chatflows`): 403 for anyone else, 404 for an unknown version.
 */
export async function chatflowForRequest(row: Chatflow, caller: Caller, requested?: number | "draft") {
  if (requested === undefined) return chatflowAtVersion(row, "published");
  if (!mayAct(caller, "chatflow.runVersion", row.ownerId)) {
    throw new AppError(
      "forbidden",
      "Only the chatflow's managers (a studio session or an API key with the chatflows permission) may choose a version.",
    );
  }
  return chatflowAtVersion(row, requested);
}

/** A version as the list shows it. */
function toVersionSummary(
  v: Pick<ChatflowVersion, "version" | "createdAt" | "authorId" | "authorName" | "message">,
  row: Pick<Chatflow, "version" | "publishedVersion">,
) {
  return {
    version: v.version,
    createdAt: v.createdAt,
    author: v.authorName,
    authorId: v.authorId,
    message: v.message,
    published: v.version === (row.publishedVersion ?? null),
    draft: v.version === row.version,
  };
}

/** Versions of a chatflow the caller may read, newest first. */
export async function listVersions(chatflowId: string, caller: Caller, page?: PageRequest) {
  const row = await getChatflowOrThrow(chatflowId, caller, "chatflow.versions");
  const { items: versions, nextCursor } = await listChatflowVersions({ chatflowId, page });
  const runs = await lastTestRunsOf(
    chatflowId,
    versions.map((v) => v.version),
  );
  return {
    version: row.version,
    publishedVersion: row.publishedVersion,
    versions: versions.map((v) => ({ ...toVersionSummary(v, row), lastTestRun: runs.get(v.version) ?? null })),
    nextCursor,
  };
}

/** One stored version (404 when the chatflow has none by that number). */
async function versionOrThrow(row: Chatflow, n: number): Promise<ChatflowVersion> {
  const v = await versionCache().get(`${row.id}:${n}`, () => findChatflowVersion({ chatflowId: row.id, version: n }));
  if (!v) throw new AppError("not_found", `Chatflow ${row.id} has no version ${n}.`);
  return v;
}

/** One version with its graph and run settings. */
export async function getVersionDetail(chatflowId: string, n: number, caller: Caller) {
  const row = await getChatflowOrThrow(chatflowId, caller, "chatflow.versions");
  const v = await versionOrThrow(row, n);
  return {
    ...toVersionSummary(v, row),
    graph: v.graph,
    overrideAllowList: v.overrideAllowList,
    chatbotConfig: v.chatbotConfig,
    speechToText: v.speechToText,
  };
}

/** A version with its graph read with the graph schema it was saved through (a diff, a restore). */
function withGraph(v: ChatflowVersion) {
  return {
    ...v,
    graph: parseStoredJson(graphSchema, v.graph, { table: "ChatflowVersion", column: "graph", id: v.id }),
  };
}

/**
 * What changed from version `against` (default: the one before `n`) to version `n`
 * (lib/services/chatflow-diff.ts).
 */
export async function diffChatflowVersions(
  chatflowId: string,
  n: number,
  againstVersion: number | undefined,
  caller: Caller,
) {
  const row = await getChatflowOrThrow(chatflowId, caller, "chatflow.versions");
  if (againstVersion === undefined && n === 1)
    throw new AppError("validation_failed", "Version 1 has no version before it: say which to compare with (against).");
  const against = againstVersion ?? n - 1;
  const [to, from] = await Promise.all([versionOrThrow(row, n), versionOrThrow(row, against)]);
  return diffVersions(withGraph(from), withGraph(to), async (ids) => {
    const rows = await findCredentialNames({ ids });
    return new Map(rows.map((r) => [r.id, r.name]));
  });
}

/**
 * Publishes version `n`: from now on the prediction API, vector upsert, the widget and the public
 * pages run it. The publish gate (assertPublishable, e.g. "require passing tests") decides first.
 */
export async function publishVersion(chatflowId: string, n: number, caller: Caller) {
  const row = await getChatflowOrThrow(chatflowId, caller, "chatflow.publish");
  await versionOrThrow(row, n);
  await assertPublishable(row, n);
  const saved = await setPublishedVersion({ id: chatflowId, version: n });
  if (!saved) throw new AppError("not_found", `Chatflow ${chatflowId} not found.`);
  await publishChange({ type: "chatflow.saved", chatflowId });
  const testRun = (await lastTestRunsOf(chatflowId, [n])).get(n) ?? null;
  return { id: chatflowId, version: saved.version, publishedVersion: n, testRun };
}

/**
 * Restores version `n` as a new version (the new draft) holding its graph and run settings; the
 * published version and the chatbot settings (not versioned) stay as they are. `message` defaults to "Restored from version n".
 */
export async function restoreVersion(chatflowId: string, n: number, caller: Caller, message?: string) {
  const row = await getChatflowOrThrow(chatflowId, caller, "chatflow.update");
  const v = await versionOrThrow(row, n);
  return updateChatflow(
    chatflowId,
    {
      graph: withGraph(v).graph,
      overrideAllowList: v.overrideAllowList,
      // Passed on as stored: a version may hold settings saved before a schema change (or speechToText's
      // unset {}), which the request schemas would refuse.
      speechToText: v.speechToText as never,
      versionMessage: message?.trim() || `Restored from version ${n}`,
    },
    caller,
  );
}
