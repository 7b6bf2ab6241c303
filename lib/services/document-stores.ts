import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import { actingUserId, assertMay, mayAct, ownerFilter, type Action } from "@/common/access/permissions";
import type { Graph } from "@/common/schemas/graph";
import type { CreateDocumentStoreInput, UpdateDocumentStoreInput } from "@/common/schemas/document-store";
import type { DocumentStore } from "../db/generated/client";
import {
  deleteDocumentStoreById,
  findDocumentStoreById,
  insertDocumentStore,
  listDocumentStores,
  updateDocumentStoreById,
} from "../db/queries/document-stores";
import { toRunError } from "../flow/run-errors";
import { assertMayUseCredentials } from "./credentials";
import { buildStoreNodeWith, validateStoreGraph } from "./document-store-graph";
import { buildContext } from "./flows";
import { documentStore } from "./vector-store-db";
import type { PageRequest } from "@/common/schemas/pagination";

/**
 * Document stores (Flowise's Document Stores): a named, owned graph of loaders, a splitter,
 * embeddings and one store node, independent of any flow. Its chunks are DocumentChunk rows keyed by
 * the store's id and that node's id, written by the same record manager as a chatflow's upsert (exact
 * counts, skips on a re-upsert), so a pgvector, keyword or remote store node works here as in a flow.
 * Flows read it through the Document Store Retriever node (document-store-graph.ts, via buildContext).
 */

/** A store's saved graph (validated again: definitions may have changed since it was saved). */
const storeGraphOf = (row: DocumentStore) => validateStoreGraph(row.graph);

/** What the API answers for a store: its fields, its store node and how many chunks it holds. */
export async function toDocumentStoreDto(row: DocumentStore) {
  const { store } = storeGraphOf(row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status as "empty" | "upserted" | "stale",
    ownerId: row.ownerId,
    graph: row.graph as Graph,
    storeNode: { nodeId: store.nodeId, type: store.type, storeType: store.storeType },
    chunks: await documentStore.count({ chatflowId: row.id, nodeId: store.nodeId }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Loads a store the caller may `action` on; another owner's store answers 404 like an unknown id. */
export async function getDocumentStoreOrThrow(id: string, caller: Caller, action: Action = "documentStore.read") {
  assertMay(caller, action, `do '${action}' on document stores`);
  const row = await findDocumentStoreById({ id });
  if (!row || !mayAct(caller, action, row.ownerId)) throw new AppError("not_found", `Document store ${id} not found.`);
  return row;
}

/** The stores the caller may read, last changed first. */
export async function listDocumentStoresFor(caller: Caller, page?: PageRequest) {
  const rows = await listDocumentStores({ ownerId: ownerFilter(caller, "documentStore.list") }, page);
  return {
    items: await Promise.all(rows.items.map(async (r) => ({ ...(await toDocumentStoreDto(r)), graph: undefined }))),
    nextCursor: rows.nextCursor,
  };
}

export async function createDocumentStore(input: CreateDocumentStoreInput, caller: Caller) {
  assertMay(caller, "documentStore.create", "create document stores");
  const { graph } = validateStoreGraph(input.graph);
  await assertMayUseCredentials(caller, graph);
  const row = await insertDocumentStore({
    name: input.name,
    description: input.description ?? "",
    graph: graph as object,
    ownerId: actingUserId(caller),
  });
  return toDocumentStoreDto(row);
}

/** A new graph marks an upserted store stale: its chunks came from the old loaders. */
export async function updateDocumentStore(id: string, input: UpdateDocumentStoreInput, caller: Caller) {
  const row = await getDocumentStoreOrThrow(id, caller, "documentStore.update");
  const graph = input.graph ? validateStoreGraph(input.graph).graph : undefined;
  if (graph) await assertMayUseCredentials(caller, graph);
  const updated = await updateDocumentStoreById({
    id,
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(graph ? { graph: graph as object, status: row.status === "empty" ? "empty" : "stale" } : {}),
    },
  });
  return toDocumentStoreDto(updated);
}

/** Deletes a store with its chunks (and, for a remote store node, their vectors in the index). */
export async function deleteDocumentStore(id: string, caller: Caller) {
  const row = await getDocumentStoreOrThrow(id, caller, "documentStore.delete");
  // A remote index's vectors are removed through the store node; a store that no longer builds
  // (a credential deleted) still goes, its remote vectors left to the index's owner.
  const store = await buildStoreNode(row).catch(() => undefined);
  if (store?.opts.remote) await store.clear();
  await deleteDocumentStoreById({ id });
  return { deleted: true as const, id };
}

/** Builds a store's store node with its owner's credentials; its chunks are keyed by the store's id. */
const buildStoreNode = (row: DocumentStore) => buildStoreNodeWith(row, buildContext(row.id, row.ownerId));

/** Loads and splits the store's sources without writing: the first chunks and the totals. */
export async function previewDocumentStore(id: string, opts: { previewChunkCount: number }, caller: Caller) {
  const row = await getDocumentStoreOrThrow(id, caller, "documentStore.upsert");
  try {
    const { documents } = await (await buildStoreNode(row)).prepare([]);
    return {
      chunks: documents.slice(0, opts.previewChunkCount),
      totalChunks: documents.length,
      totalChars: documents.reduce((n, d) => n + d.pageContent.length, 0),
    };
  } catch (e) {
    throw toRunError(e);
  }
}

/**
 * Loads, splits, embeds and writes the store's chunks (Flowise's upsert and refresh: both re-process
 * every loader); the record manager skips unchanged chunks and deletes those of changed sources.
 */
export async function upsertDocumentStore(id: string, caller: Caller) {
  const row = await getDocumentStoreOrThrow(id, caller, "documentStore.upsert");
  const [outcome] = await buildStoreNode(row)
    .then(async (store) => documentStore.upsert([await store.prepare([])]))
    .catch((e) => {
      throw toRunError(e);
    });
  await updateDocumentStoreById({ id, data: { status: "upserted" } });
  const { added: _added, ...counts } = outcome;
  return counts;
}

/** The store's top chunks for a query (Flowise's vectorstore query), with the time it took. */
export async function queryDocumentStore(id: string, query: string, caller: Caller) {
  const row = await getDocumentStoreOrThrow(id, caller, "documentStore.read");
  const started = performance.now();
  try {
    const docs = await (await buildStoreNode(row)).search(query);
    return { timeTaken: Math.round(performance.now() - started), docs };
  } catch (e) {
    throw toRunError(e);
  }
}
