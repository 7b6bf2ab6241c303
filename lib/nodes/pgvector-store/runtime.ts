import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { StoreRetriever } from "../../vector/store-retriever";
import { isDocumentSource, type CleanupMode } from "../../vector/types";
import type { NodeRuntime } from "../runtime-types";

/** Builds the pgvector store node: a retriever over this node's chunks that upserts embed. */
export const buildPgvectorStore: NodeRuntime = async ({ nodeId, label, params, inputs, ctx }) =>
  new StoreRetriever({
    storeType: "vector",
    nodeId,
    label,
    ctx,
    sources: ((inputs.document as unknown[] | undefined) ?? []).filter(isDocumentSource),
    embeddings: inputs.embeddings as EmbeddingsInterface,
    topK: params.topK as number,
    scoreThreshold: params.scoreThreshold as number | undefined,
    cleanup: params.cleanup as CleanupMode,
  });
