import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { Document } from "@langchain/core/documents";
import { AppError } from "@/common/errors";
import { isDocumentSource } from "../../vector/types";
import type { RuntimeOf } from "../define";
import { requesterOf } from "../shared/openai-connection";
import type { memoryVectorStoreDefinition } from "./definition";

/** Most chunks embedded at build time: beyond this, a persistent store (upserted once) is the right tool. */
export const MAX_MEMORY_CHUNKS = 2000;

/**
 * Flowise's In-Memory Vector Store: the connected loaders' documents (their saved files or text) are
 * embedded when the flow is built, held in this built flow only (the built-flow cache keeps it per
 * chatflow version), and searched by cosine similarity. No upsert, no database.
 */
export const buildMemoryVectorStore: RuntimeOf<typeof memoryVectorStoreDefinition> = async ({
  params,
  inputs,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const sources = inputs.document.filter(isDocumentSource);
  const loaded = (await Promise.all(sources.map((s) => s.load([])))).flat();
  const documents = loaded.filter((d) => d.pageContent.trim());
  if (documents.length > MAX_MEMORY_CHUNKS)
    throw new AppError(
      "invalid_graph",
      `${requester}: the connected documents make ${documents.length} chunks; an in-memory store takes at most ${MAX_MEMORY_CHUNKS}. Use the Vector Store (pgvector) and upsert them once.`,
    );
  const store = await MemoryVectorStore.fromDocuments(
    documents.map((d) => new Document({ pageContent: d.pageContent, metadata: d.metadata })),
    inputs.embeddings,
  );
  return store.asRetriever(params.topK);
};
