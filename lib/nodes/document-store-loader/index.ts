import { AppError } from "@/common/errors";
import type { DocumentSource } from "../../vector/types";
import { defineNode, type RuntimeOf } from "../define";
import { documentStoreLoaderDefinition } from "./definition";

/**
 * Reads the store's chunks on each load (an upsert of the flow), with the flow owner's access: a
 * store the owner may not read answers 404 like an unknown id. A store holding nothing refuses
 * (422 naming it) rather than adding nothing without a word.
 */
const buildDocumentStoreLoader: RuntimeOf<typeof documentStoreLoaderDefinition> = async ({ label, params, ctx }) => {
  const read = ctx.documentStoreChunks;
  if (!read) throw new AppError("not_configured", `${label}: no document stores are available in this process.`);
  const source: DocumentSource = {
    kind: "documentSource",
    label,
    accepts: [],
    async load() {
      const { name, chunks } = await read(params.storeId);
      if (chunks.length === 0)
        throw new AppError(
          "unprocessable",
          `${label}: document store "${name}" (${params.storeId}) holds no chunks yet: upsert it in Document Stores first.`,
        );
      return chunks;
    },
  };
  return source;
};

export const documentStoreLoader = defineNode({
  definition: documentStoreLoaderDefinition,
  runtime: buildDocumentStoreLoader,
});
