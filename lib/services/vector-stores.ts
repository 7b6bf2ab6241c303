import { AppError } from "@/common/errors";
import { validateGraph, buildNodes } from "../flow";
import type { Caller } from "@/common/access/callers";
import { storeKindOf } from "@/common/nodes/capabilities";
import { getDefinition } from "../nodes/registry";
import { isStoreRetriever } from "../vector/store-retriever";
import type { z } from "zod";
import { graphSchema, type Graph } from "@/common/schemas/graph";
import type { vectorStoreResponseSchema } from "@/common/schemas/responses";
import type { Chatflow } from "../db/generated/client";
import { parseStoredJson } from "../db/stored-json";
import { getChatflowOrThrow } from "./chatflows";
import { buildContext } from "./flows";
import { documentStore } from "./vector-store-db";

/** A store node as GET /api/v1/vector/stores lists it, before its chunks are counted. */
export type StoreNodeInfo = Omit<z.output<typeof vectorStoreResponseSchema>, "chunks">;

/** The store nodes of a graph (those declaring the `store` capability). */
export function storeNodesOf(graph: Graph): StoreNodeInfo[] {
  return graph.nodes.flatMap((n) => {
    const def = getDefinition(n.type);
    const storeType = def && storeKindOf(def);
    if (!def || !storeType) return [];
    return [{ nodeId: n.id, label: n.data.label || def.label, type: n.type, storeType }];
  });
}

/** A chatflow's saved graph, read with the schema it was saved through (not built: it need not be runnable). */
function savedGraphOf(chatflow: Pick<Chatflow, "id" | "graph">): Graph {
  return parseStoredJson(graphSchema, chatflow.graph, { table: "Chatflow", column: "graph", id: chatflow.id });
}

/** Per store node of a chatflow: how many chunks it holds (for the studio). */
export async function listVectorStores(chatflowId: string, caller: Caller) {
  const chatflow = await getChatflowOrThrow(chatflowId, caller, "chatflow.upsert");
  const stores = storeNodesOf(savedGraphOf(chatflow));
  return Promise.all(
    stores.map(async (s) => ({ ...s, chunks: await documentStore.count({ chatflowId, nodeId: s.nodeId }) })),
  );
}

/** Deletes every chunk of one store node. Works even when the flow no longer builds. */
export async function clearVectorStore(chatflowId: string, nodeId: string, caller: Caller) {
  const chatflow = await getChatflowOrThrow(chatflowId, caller, "chatflow.upsert");
  const known = storeNodesOf(savedGraphOf(chatflow)).some((s) => s.nodeId === nodeId);
  const held = await documentStore.count({ chatflowId, nodeId });
  if (!known && held === 0)
    throw new AppError("not_found", `Chatflow ${chatflowId} has no vector store node ${nodeId}.`);
  const deleted = await documentStore.clear({ chatflowId, nodeId });
  return { nodeId, deleted };
}

/**
 * Builds the given store nodes of a valid graph (and what feeds them) and returns them. Like a
 * prediction, the build resolves only credentials the chatflow's owner may use (an embeddings
 * node's credential an admin stopped sharing is refused, 403 naming it).
 */
export async function buildStoreNodes(
  chatflow: { id: string; ownerId: string | null },
  graph: Graph,
  nodeIds: string[],
) {
  const built = await buildNodes(validateGraph(graph), nodeIds, buildContext(chatflow.id, chatflow.ownerId));
  return nodeIds.map((id) => {
    const store = built.get(id);
    if (!isStoreRetriever(store)) throw new AppError("invalid_graph", `Node ${id} is not a vector store.`);
    return store;
  });
}
