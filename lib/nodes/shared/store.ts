import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { StoreRetriever } from "../../vector/store-retriever";
import { isDocumentSource, type CleanupMode } from "../../vector/types";
import type { RuntimeArgs } from "../runtime-types";
import type { StoreKind } from "@/common/nodes/types";

/** What a store node's definition provides: its params and its anchors (embeddings: vector only). */
interface StoreArgs extends Omit<RuntimeArgs, "params" | "inputs"> {
  params: { topK: number; cleanup: CleanupMode; scoreThreshold?: number };
  inputs: { document: unknown[]; embeddings?: EmbeddingsInterface };
}

/**
 * The runtime of a store node (vector or keyword, as its definition's `store` capability says): a
 * retriever over this node's chunks that the upsert service fills (embedding them for a vector store).
 */
export function storeRuntime(storeType: StoreKind) {
  return async ({ nodeId, label, params, inputs, ctx }: StoreArgs) =>
    new StoreRetriever({
      storeType,
      nodeId,
      label,
      ctx,
      sources: inputs.document.filter(isDocumentSource),
      embeddings: inputs.embeddings,
      topK: params.topK,
      scoreThreshold: params.scoreThreshold,
      cleanup: params.cleanup,
    });
}
