import { StoreRetriever } from "../../vector/store-retriever";
import { isDocumentSource, type CleanupMode } from "../../vector/types";
import type { NodeRuntime } from "../runtime-types";

/** Builds the keyword store node: full-text search over this node's chunks, no model needed. */
export const buildKeywordStore: NodeRuntime = async ({ nodeId, label, params, inputs, ctx }) =>
  new StoreRetriever({
    storeType: "keyword",
    nodeId,
    label,
    ctx,
    sources: ((inputs.document as unknown[] | undefined) ?? []).filter(isDocumentSource),
    topK: params.topK as number,
    cleanup: params.cleanup as CleanupMode,
  });
