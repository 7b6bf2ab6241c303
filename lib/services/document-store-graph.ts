import { AppError } from "@/common/errors";
import { validateGraph as validateWith } from "@/common/flow/validate";
import { storeKindOf } from "@/common/nodes/capabilities";
import type { Graph } from "@/common/schemas/graph";
import type { DocumentStore } from "../db/generated/client";
import { findChunksInOrder } from "../db/queries/document-chunks";
import { findDocumentStoreById } from "../db/queries/document-stores";
import { findUserById } from "../db/queries/users";
import { buildNodes } from "../flow";
import type { BuildContext } from "../flow/types";
import { migrateSavedNode } from "../nodes/migrate";
import { getDefinition } from "../nodes/registry";
import { isStoreRetriever, type StoreRetriever } from "../vector/store-retriever";

/**
 * A document store's graph and its store node, built (lib/services/document-stores.ts is the service;
 * this part is what buildContext needs for the Document Store Retriever node, with no service import).
 */

export type StoreNodeRef = { nodeId: string; type: string; storeType: "vector" | "keyword" };

/**
 * A store's graph checked against the node registry (nodes, params, anchors) without a chatflow's
 * ending rule (a store ends at its store node), holding exactly one store node.
 */
export function validateStoreGraph(graph: unknown): { graph: Graph; store: StoreNodeRef } {
  const valid = validateWith(graph, getDefinition, migrateSavedNode, () => {});
  const stores = valid.nodes.flatMap((n) => {
    const def = getDefinition(n.type);
    const storeType = def && storeKindOf(def);
    return storeType ? [{ nodeId: n.id, type: n.type, storeType }] : [];
  });
  if (stores.length !== 1)
    throw new AppError(
      "unprocessable",
      `graph: a document store holds exactly one vector or keyword store node; this graph has ${stores.length}.`,
    );
  return { graph: valid, store: stores[0] };
}

/** Builds a store's store node (and its loaders, splitter, embeddings) in the given build context. */
export async function buildStoreNodeWith(row: DocumentStore, ctx: BuildContext): Promise<StoreRetriever> {
  const { graph, store } = validateStoreGraph(row.graph);
  const built = await buildNodes(graph, [store.nodeId], ctx);
  const node = built.get(store.nodeId);
  if (!isStoreRetriever(node)) throw new AppError("invalid_graph", `Node ${store.nodeId} is not a store.`);
  return node;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The store a flow owned by `flowOwnerId` may read: its owner's own, or any when the owner is an
 * admin or the flow has none (admins manage it: common/access/permissions.ts); else 404 naming the id.
 */
export async function findStoreForFlow(storeId: string, flowOwnerId: string | null): Promise<DocumentStore> {
  const row = UUID.test(storeId) ? await findDocumentStoreById({ id: storeId }) : null;
  const owner = flowOwnerId ? await findUserById({ id: flowOwnerId }) : null;
  const asAdmin = flowOwnerId === null || owner?.role === "admin";
  if (!row || !(asAdmin || (row.ownerId !== null && row.ownerId === flowOwnerId)))
    throw new AppError("not_found", `Document store ${storeId} not found.`);
  return row;
}

/** Most chunks a flow's Document Store loader reads from one store (Flowise reads them all; a cap keeps a run bounded). */
export const STORE_LOADER_MAX_CHUNKS = 10_000;

/** The chunks a store holds, oldest first (at most STORE_LOADER_MAX_CHUNKS), and its name. */
export async function readStoreChunks(row: DocumentStore) {
  const { store } = validateStoreGraph(row.graph);
  const chunks = await findChunksInOrder({ chatflowId: row.id, nodeId: store.nodeId }, STORE_LOADER_MAX_CHUNKS);
  return { name: row.name, chunks };
}
