import { storableJson, storableText } from "../db/storable-text";
import {
  assertEmbeddingsTable,
  countChunks,
  deleteChunks,
  encodeVectors,
  findKeywordChunks,
  findNearestChunks,
  findStoredDimensions,
  findStoredRecords,
  writeChunkPlans,
  type ChunkWrite,
  type EncodedVectors,
} from "../db/queries/document-chunks";
import { AppError } from "@/common/errors";
import { planUpsert, sourceOf, type UpsertPlan } from "../vector/record-manager";
import type { DocumentStoreAccess, PreparedUpsert, StoreDocument } from "../vector/types";

/**
 * The document store of vector and keyword store nodes, given to node runtimes by buildContext:
 * plans each upsert (record manager), calls the embeddings model for the new chunks, and hands
 * the vectors to the database module (lib/db/queries/document-chunks.ts), which writes every store
 * of an upsert in one transaction.
 */

function dimensionMismatch(stored: number, given: number): AppError {
  return new AppError(
    "unprocessable",
    `This vector store holds ${stored}-dimension embeddings, but the embeddings model gives ${given} dimensions. Clear the store (or use the same model) and upsert again.`,
  );
}

/** Embeds the new chunks of a plan (outside the transaction: model calls can be slow). */
async function embedNew(p: PreparedUpsert, plan: UpsertPlan): Promise<EncodedVectors | undefined> {
  if (!p.embed || plan.add.length === 0) return undefined;
  const vectors = await p.embed(plan.add.map((c) => c.document.pageContent));
  if (vectors.length !== plan.add.length)
    throw new AppError("upstream_error", "The embeddings model returned a wrong number of vectors.");
  const dims = vectors[0].length;
  if (vectors.some((v) => v.length !== dims))
    throw new AppError("upstream_error", "The embeddings model returned vectors of different sizes.");
  const stored = await findStoredDimensions(p.collection);
  if (stored !== undefined && stored !== dims) throw dimensionMismatch(stored, dims);
  return encodeVectors(vectors);
}

/**
 * Parsed documents may hold NUL characters or lone surrogates (a JSON file's `\u0000` escape, a
 * PDF's text layer), which PostgreSQL refuses; they are cleaned here, before hashing, where every
 * chunk enters storage.
 */
function storableDocument(d: StoreDocument): StoreDocument {
  return { pageContent: storableText(d.pageContent), metadata: storableJson(d.metadata) as Record<string, unknown> };
}

/** Plans and embeds one store's upsert against what it holds now. */
async function prepareWrite(given: PreparedUpsert): Promise<ChunkWrite> {
  const p = { ...given, documents: given.documents.map(storableDocument) };
  const sources = p.cleanup === "full" ? undefined : [...new Set(p.documents.map(sourceOf))];
  const plan = planUpsert(p.documents, await findStoredRecords({ collection: p.collection, sources }), p.cleanup);
  return { collection: p.collection, plan, vectors: await embedNew(p, plan) };
}

/** The process's chunk store on the app database. */
export const documentStore: DocumentStoreAccess = {
  async upsert(batch) {
    // A server without pgvector refuses a vector store before any model call.
    if (batch.some((p) => p.embed)) await assertEmbeddingsTable();
    const writes: ChunkWrite[] = [];
    for (const p of batch) writes.push(await prepareWrite(p));
    return writeChunkPlans(writes);
  },

  async similaritySearch({ collection, vector, k, scoreThreshold }) {
    await assertEmbeddingsTable();
    const stored = await findStoredDimensions(collection);
    if (stored === undefined) return [];
    if (stored !== vector.length) throw dimensionMismatch(stored, vector.length);
    const found = await findNearestChunks({ collection, vector, k });
    return found.filter((d) => scoreThreshold === undefined || d.score >= scoreThreshold);
  },

  keywordSearch: (args) => findKeywordChunks(args),
  count: (collection) => countChunks(collection),
  clear: (collection) => deleteChunks(collection),
};
