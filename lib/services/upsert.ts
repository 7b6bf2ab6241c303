import { getEnv } from "../env";
import { AppError } from "../errors";
import { applyOverrides, validateGraph } from "../flow";
import { toRunError } from "../flow/run-errors";
import type { Caller } from "../access/callers";
import type { Graph } from "../schemas/graph";
import { acceptedTypesMessage } from "../vector/loaders";
import type { StoreRetriever } from "../vector/store-retriever";
import type { StoreDocument, UpsertCounts, UpsertFile } from "../vector/types";
import { getChatflowOrThrow } from "./chatflows";
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
  const chatflow = await getChatflowOrThrow(req.chatflowId, req.caller, "chatflow.upsert");
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
