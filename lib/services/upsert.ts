import { AppError } from "@/common/errors";
import type { Chatflow } from "../db/generated/client";
import { getEnv } from "../env";
import { type RunKind, runTransport } from "../jobs";
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
import { readStagedFiles, removeStaging, type StagedFile, stageFiles } from "./upsert-staging";
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
  /** The client went away (a queued job is cancelled and its staged files removed). */
  signal?: AbortSignal;
  /** `?version=N|draft`: a manager pins the version whose stores are loaded (else the published one). */
  version?: number | "draft";
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

/**
 * An upsert as queued (plain data: it may cross Redis to a worker). Its uploaded files are staged
 * under DATA_DIR when it is handed to a worker (upsert-staging.ts); in this process they are the
 * request's own (UpsertKnown).
 */
export interface UpsertJob extends UpsertInput {
  chatflowId: string;
  /** The chatflow version whose stores are loaded (chosen and checked when the upsert was resolved). */
  resolvedVersion?: number;
  caller: Caller;
  files: StagedFile[];
  stagingDir?: string;
}

/** What the process that resolved an upsert knows of it: the chatflow at its version, the uploaded files. */
interface UpsertKnown {
  chatflow: Chatflow;
  files: UpsertFile[];
}

// An upsert is a run through these steps, in this order, whichever transport runs it:
//   resolve the chatflow and its version, authorize (resolveUpsert, in the process the request came to)
//   → files, the stores' subgraph built, files checked against its loaders (prepareUpsert)
//   → documents loaded, split and embedded, every store written in one transaction (executeUpsert).

/** Step 1: the chatflow the caller may upsert into, at the version asked for (else the published one). */
async function resolveUpsert(req: UpsertRequest): Promise<{ job: UpsertJob; known: UpsertKnown }> {
  const row = await getChatflowOrThrow(req.chatflowId, req.caller, "chatflow.upsert");
  const chatflow = await chatflowForRequest(row, req.caller, req.version);
  const job: UpsertJob = {
    chatflowId: req.chatflowId,
    resolvedVersion: chatflow.version,
    caller: req.caller,
    overrideConfig: req.overrideConfig,
    returnSourceDocuments: req.returnSourceDocuments,
    ...(req.stopNodeIds ? { stopNodeIds: req.stopNodeIds } : {}),
    files: [],
  };
  return { job, known: { chatflow, files: req.files } };
}

/** Step 2: the stores chosen, the subgraph feeding them built, the files checked against their loaders. */
async function prepareUpsert(job: UpsertJob, { chatflow, files }: UpsertKnown) {
  const graph: Graph = applyOverrides(validateGraph(chatflow.graph), job.overrideConfig, chatflow.overrideAllowList);
  const chosen = chooseStores(storeNodesOf(graph), job.stopNodeIds);
  const stores = await buildStoreNodes(
    chatflow,
    graph,
    chosen.map((s) => s.nodeId),
  );
  checkFilesAccepted(stores, files);
  return { job, chatflow, files, chosen, stores };
}

type PreparedUpsert = Awaited<ReturnType<typeof prepareUpsert>>;

/** Step 3: documents loaded, split and embedded, then every store written in one transaction. */
async function executeUpsert({ job, chatflow, files, chosen, stores }: PreparedUpsert): Promise<UpsertResult> {
  let outcomes: Awaited<ReturnType<typeof documentStore.upsert>>;
  try {
    const prepared = [];
    for (const store of stores) prepared.push(await store.prepare(files));
    outcomes = await documentStore.upsert(prepared);
  } catch (e) {
    throw toRunError(e);
  }
  if (files.length) await storeUpsertFiles(getEnv().DATA_DIR, chatflow.id, files);
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
    ...(job.returnSourceDocuments ? { addedDocs: outcomes.flatMap((o) => o.added) } : {}),
  };
}

/**
 * Upserts as a kind of run (lib/jobs): prepared and executed in this process, or on a queue worker
 * (runOnWorker), which reads the staged files and the chatflow again, and removes the staged files
 * once done (the API process removes them too when its wait ends: whichever comes last).
 */
export const upsertRuns: RunKind<UpsertJob, PreparedUpsert, UpsertResult, UpsertKnown> = {
  queue: "upserts",
  async prepare(job, known) {
    try {
      if (known) return await prepareUpsert(job, known);
      const files = await readStagedFiles(job.files);
      const row = await getChatflowOrThrow(job.chatflowId, job.caller, "chatflow.upsert");
      // Jobs queued before versions existed carry none: they load the published version.
      const chatflow = await chatflowAtVersion(row, job.resolvedVersion ?? "published");
      return await prepareUpsert(job, { chatflow, files });
    } catch (err) {
      await removeStaging(job.stagingDir);
      throw err;
    }
  },
  async execute(prepared) {
    try {
      return await executeUpsert(prepared);
    } finally {
      await removeStaging(prepared.job.stagingDir);
    }
  },
  async handOver(job, known, runId) {
    const { stagingDir, staged } = await stageFiles(runId, known?.files ?? []);
    return {
      input: { ...job, files: staged, ...(stagingDir ? { stagingDir } : {}) },
      // Whatever the outcome (result, error, 504 job_timeout, the client aborting, Redis down): the
      // worker removes them once done; this covers a job that never ran or still runs. A process that
      // dies here leaves them for the sweep at worker start (sweepStaleStaging).
      release: () => removeStaging(stagingDir),
    };
  },
};

/**
 * What the upsert route calls: resolves and authorizes here, then runs the upsert on this process's
 * transport (lib/jobs: in this process, or on a queue worker with its files staged under DATA_DIR).
 */
export async function startUpsert(req: UpsertRequest): Promise<UpsertResult> {
  const { job, known } = await resolveUpsert(req);
  const { signal } = req;
  const started = await runTransport().start(upsertRuns, job, {
    known,
    ...(req.requestId ? { requestId: req.requestId } : {}),
  });
  return started.execute(signal ? { signal } : {}).catch((err) => {
    // The wait ended because the client went away: nobody reads this answer; a 4xx rather than the
    // abort reason reported as an internal error.
    if (signal?.aborted && err === signal.reason)
      throw new AppError("bad_request", "The client closed the request before the upsert finished.");
    throw err;
  });
}

/** An upsert run to its end in this process, whatever the transport (scripts and tests). Same steps and checks. */
export async function upsertVectors(req: UpsertRequest): Promise<UpsertResult> {
  const { job, known } = await resolveUpsert(req);
  return upsertRuns.execute(await upsertRuns.prepare(job, known), { attempt: 1, emit: () => {} });
}
