import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { getEnv } from "../env";
import { type ProcessorContext, runJob } from "../queue";
import { AppError } from "@/common/errors";
import { applyOverrides, validateGraph } from "../flow";
import { toRunError } from "../flow/run-errors";
import type { Caller } from "@/common/access/callers";
import type { Graph } from "@/common/schemas/graph";
import { acceptedTypesMessage } from "../vector/loaders";
import type { StoreRetriever } from "../vector/store-retriever";
import type { StoreDocument, UpsertCounts, UpsertFile } from "../vector/types";
import { getChatflowOrThrow } from "./chatflows";
import { chatflowAtVersion, chatflowForRequest } from "./chatflow-versions";
import { storeUpsertFiles } from "./upsert-files";
import type { UpsertInput } from "./upsert-request";
import { buildStoreNodes, storeNodesOf, type StoreNodeInfo } from "./vector-stores";
import { documentStore } from "./vector-store-db";

/**
 * Vector upsert: loads documents into the store nodes of a chatflow. Only the subgraph feeding the
 * chosen stores is built; documents are loaded, split and embedded first, then every store is
 * written in one transaction, so a failure leaves all stores as they were.
 */

export interface UpsertRequest extends UpsertInput {
  chatflowId: string;
  caller: Caller;
  files: UpsertFile[];
  /** The API request's id (lib/http/route.ts): a queued upsert's worker log lines carry it. */
  requestId?: string;
  /** The client went away (queue mode: the job is cancelled and its staged files removed). */
  signal?: AbortSignal;
  /** `?version=N|draft`: a manager pins the version whose stores are loaded (else the published one). */
  version?: number | "draft";
  /** The version number already chosen and checked by the API process (queue mode's job). */
  resolvedVersion?: number;
}

export interface UpsertResult extends UpsertCounts {
  stores: ({ nodeId: string; label: string } & UpsertCounts)[];
  addedDocs?: StoreDocument[];
}

const describe = (s: StoreNodeInfo) => `"${s.label}" (${s.nodeId})`;

/** The store nodes to write: the ones named by stopNodeId, or the only one. */
export function chooseStores(stores: StoreNodeInfo[], stopNodeIds: string[] | undefined): StoreNodeInfo[] {
  const listed = stores.map(describe).join(", ");
  if (stores.length === 0)
    throw new AppError("unprocessable", "This chatflow has no vector store node to upsert into.");
  if (!stopNodeIds) {
    if (stores.length === 1) return stores;
    throw new AppError(
      "validation_failed",
      `This chatflow has ${stores.length} vector stores: ${listed}. Name the one(s) to upsert in stopNodeId.`,
      {
        details: stores.map((s) => ({ nodeId: s.nodeId, label: s.label, type: s.type })),
      },
    );
  }
  const unknown = stopNodeIds.filter((id) => !stores.some((s) => s.nodeId === id));
  if (unknown.length) {
    throw new AppError(
      "validation_failed",
      `stopNodeId: ${unknown.join(", ")} is not a vector store of this chatflow; its vector stores are ${listed}.`,
      {
        details: stores.map((s) => ({ nodeId: s.nodeId, label: s.label, type: s.type })),
      },
    );
  }
  return stores.filter((s) => stopNodeIds.includes(s.nodeId));
}

/** Refuses uploads no loader of the chosen stores reads (415 naming the accepted types). */
function checkFilesAccepted(stores: StoreRetriever[], files: UpsertFile[]): void {
  const accepted = [...new Set(stores.flatMap((s) => s.opts.sources.flatMap((src) => src.accepts)))];
  for (const f of files) {
    if (!accepted.includes(f.mime))
      throw new AppError("unsupported_media_type", `${f.name}: ${acceptedTypesMessage(accepted)}`);
  }
}

/** Runs one upsert request; see the module comment. */
export async function upsertVectors(req: UpsertRequest): Promise<UpsertResult> {
  const row = await getChatflowOrThrow(req.chatflowId, req.caller, "chatflow.upsert");
  const chatflow =
    req.resolvedVersion !== undefined
      ? await chatflowAtVersion(row, req.resolvedVersion)
      : await chatflowForRequest(row, req.caller, req.version);
  const graph: Graph = applyOverrides(validateGraph(chatflow.graph), req.overrideConfig, chatflow.overrideAllowList);
  const chosen = chooseStores(storeNodesOf(graph), req.stopNodeIds);
  const stores = await buildStoreNodes(
    chatflow,
    graph,
    chosen.map((s) => s.nodeId),
  );
  checkFilesAccepted(stores, req.files);
  let outcomes: Awaited<ReturnType<typeof documentStore.upsert>>;
  try {
    const prepared = [];
    for (const store of stores) prepared.push(await store.prepare(req.files));
    outcomes = await documentStore.upsert(prepared);
  } catch (e) {
    throw toRunError(e);
  }
  if (req.files.length) await storeUpsertFiles(getEnv().DATA_DIR, chatflow.id, req.files);
  const perStore = chosen.map((s, i) => {
    const { added: _added, ...counts } = outcomes[i];
    return { nodeId: s.nodeId, label: s.label, ...counts };
  });
  const sum = (k: keyof UpsertCounts) => perStore.reduce((n, s) => n + s[k], 0);
  return {
    numAdded: sum("numAdded"),
    numUpdated: sum("numUpdated"),
    numSkipped: sum("numSkipped"),
    numDeleted: sum("numDeleted"),
    stores: perStore,
    ...(req.returnSourceDocuments ? { addedDocs: outcomes.flatMap((o) => o.added) } : {}),
  };
}

/** A vector upsert job (queue mode): the request with its files staged under DATA_DIR (a shared volume). */
export interface UpsertJob extends UpsertInput {
  chatflowId: string;
  /** The chatflow version whose stores are loaded (chosen and checked by the API process). */
  resolvedVersion?: number;
  caller: Caller;
  files: { name: string; mime: string; ext: string; path: string }[];
  stagingDir: string;
}

const stagingRoot = () => path.resolve(getEnv().DATA_DIR, "staging");

/**
 * What the upsert route calls: embedded mode runs upsertVectors here; queue mode checks access,
 * stages the uploaded files under DATA_DIR/staging/<job id> and runs the upsert on a worker.
 */
export async function startUpsert(req: UpsertRequest): Promise<UpsertResult> {
  if (getEnv().MODE !== "queue") return upsertVectors(req);
  const row = await getChatflowOrThrow(req.chatflowId, req.caller, "chatflow.upsert");
  const resolvedVersion = (await chatflowForRequest(row, req.caller, req.version)).version;
  const jobId = randomUUID();
  const stagingDir = path.join(stagingRoot(), jobId);
  const { files, signal, ...rest } = req;
  try {
    const staged = [];
    if (files.length) await fs.mkdir(stagingDir, { recursive: true });
    for (const [i, f] of files.entries()) {
      const file = path.join(stagingDir, String(i));
      await fs.writeFile(file, f.bytes);
      staged.push({ name: f.name, mime: f.mime, ext: f.ext, path: file });
    }
    const job: UpsertJob = { ...rest, resolvedVersion, files: staged, stagingDir };
    return await runJob<UpsertResult>("upserts", job, {
      jobId,
      ...(signal ? { signal } : {}),
      ...(req.requestId ? { requestId: req.requestId } : {}),
    }).catch((err) => {
      // Nobody reads this answer; a 4xx rather than the abort reason reported as an internal error.
      if (signal?.aborted)
        throw new AppError("bad_request", "The client closed the request before the upsert finished.");
      throw err;
    });
  } finally {
    // Whatever the outcome (result, error, 504 job_timeout, the client aborting, Redis down): the
    // worker removes them once read; this covers a job that never ran or still runs. A process that
    // dies here leaves them for the sweep at worker start (sweepStaleStaging).
    await fs.rm(stagingDir, { recursive: true, force: true });
  }
}

/**
 * Removes staging dirs older than JOB_TIMEOUT_MS × 2 (no request waits for their job any more):
 * left by an API process that died while it waited. Run at worker start. Returns the names removed.
 */
export async function sweepStaleStaging(now = Date.now()): Promise<string[]> {
  const root = stagingRoot();
  const maxAgeMs = getEnv().JOB_TIMEOUT_MS * 2;
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  for (const entry of entries) {
    const dir = path.join(root, entry.name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (!stat || now - stat.mtimeMs <= maxAgeMs) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

/** Runs an upsert job on a worker (see startUpsert) and removes its staged files. */
export async function runUpsertJob(job: UpsertJob, _ctx: ProcessorContext): Promise<UpsertResult> {
  const root = stagingRoot();
  try {
    const files: UpsertFile[] = [];
    for (const f of job.files) {
      // Only files under the staging root: job data is ours, but a path is checked before it is read.
      const resolved = path.resolve(f.path);
      if (!resolved.startsWith(root + path.sep))
        throw new AppError("bad_request", `${f.name}: staged file outside ${root}`);
      const bytes = await fs.readFile(resolved).catch(() => {
        throw new AppError(
          "bad_request",
          `${f.name}: the staged upload is gone (is DATA_DIR a volume shared by API and workers?)`,
        );
      });
      files.push({ name: f.name, mime: f.mime, ext: f.ext, bytes });
    }
    const { files: _files, stagingDir: _dir, ...rest } = job;
    return await upsertVectors({ ...rest, files });
  } finally {
    const dir = path.resolve(job.stagingDir);
    if (dir.startsWith(root + path.sep)) await fs.rm(dir, { recursive: true, force: true });
  }
}
