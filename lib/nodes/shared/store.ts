import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { AppError } from "@/common/errors";
import { effectivePort } from "../../security/outbound";
import { checkOperatorHost } from "../../security/outbound-policy";
import { StoreRetriever } from "../../vector/store-retriever";
import { isDocumentSource, type CleanupMode, type RemoteIndex } from "../../vector/types";
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

/** A remote vector store node's retriever: its chunks here, its vectors in `remote` (lib/vector/types.ts). */
export function remoteStoreRetriever({ nodeId, label, params, inputs, ctx }: StoreArgs, remote: RemoteIndex) {
  return new StoreRetriever({
    storeType: "vector",
    nodeId,
    label,
    ctx,
    sources: inputs.document.filter(isDocumentSource),
    embeddings: inputs.embeddings,
    topK: params.topK,
    scoreThreshold: params.scoreThreshold,
    cleanup: params.cleanup,
    remote,
  });
}

/** A JSON param holding an object (a store's metadata filter), else undefined. */
export const jsonObject = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * The host check of a store whose official client opens its own connections (Qdrant, Chroma,
 * Elasticsearch): the operator's outbound rules, the refusal naming the node.
 */
export function operatorHostCheck(requester: string) {
  return async (u: URL) => {
    try {
      await checkOperatorHost(u.hostname.replace(/^\[|\]$/g, ""), Number(effectivePort(u)));
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.code, `${requester}: ${err.message}`, { cause: err });
      throw err;
    }
  };
}
