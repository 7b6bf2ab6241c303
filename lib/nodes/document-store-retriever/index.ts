import { AppError } from "@/common/errors";
import { StoreRetriever, isStoreRetriever } from "../../vector/store-retriever";
import { defineNode, type RuntimeOf } from "../define";
import { documentStoreRetrieverDefinition } from "./definition";

/** The document store's own store node, built with its owner's credentials, with this node's Top K. */
const buildDocumentStoreRetriever: RuntimeOf<typeof documentStoreRetrieverDefinition> = async ({
  label,
  params,
  ctx,
}) => {
  if (!ctx.documentStoreRetriever)
    throw new AppError("not_configured", `${label}: no document stores are available in this process.`);
  const store = await ctx.documentStoreRetriever(params.storeId);
  if (!isStoreRetriever(store)) throw new AppError("invalid_graph", `${label}: the document store has no store node.`);
  return params.topK ? new StoreRetriever({ ...store.opts, topK: params.topK }) : store;
};

export const documentStoreRetriever = defineNode({
  definition: documentStoreRetrieverDefinition,
  runtime: buildDocumentStoreRetriever,
});
