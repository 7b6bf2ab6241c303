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
  findChunkIds,
  findChunksByIds,
  writeChunkPlans,
  type ChunkWrite,
  type EncodedVectors,
} from "../db/queries/document-chunks";
import { AppError } from "@/common/errors";
import { planUpsert, sourceOf, type UpsertPlan } from "../vector/record-manager";
import type { DocumentStoreAccess, PreparedUpsert, RemoteIndex, StoreDocument } from "../vector/types";

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
async function embedAdded(p: PreparedUpsert, plan: UpsertPlan): Promise<number[][] | undefined> {
  if (!p.embed || plan.add.length === 0) return undefined;
  const vectors = await p.embed(plan.add.map((c) => c.document.pageContent));
  if (vectors.length !== plan.add.length)
    throw new AppError("upstream_error", "The embeddings model returned a wrong number of vectors.");
  const dims = vectors[0].length;
  if (dims === 0 || vectors.some((v) => v.length !== dims || !v.every(Number.isFinite)))
    throw new AppError("upstream_error", "The embeddings model returned empty, uneven or non-numeric vectors.");
  return vectors;
}

async function embedNew(p: PreparedUpsert, plan: UpsertPlan): Promise<EncodedVectors | undefined> {
  const vectors = await embedAdded(p, plan);
  if (!vectors) return undefined;
  const stored = await findStoredDimensions(p.collection);
  if (stored !== undefined && stored !== vectors[0].length) throw dimensionMismatch(stored, vectors[0].length);
  return encodeVectors(vectors);
}

/** Most characters of a chunk's text copied into a remote record's metadata (Pinecone caps metadata at 40 KB). */
const REMOTE_TEXT_MAX = 30_000;

/**
 * A remote record's metadata: the chunk's own, its source, and its text under the index's text key,
 * so other tools reading the index (LangChain, Flowise) find the text where they look for it.
 */
const remoteMetadataOf = (remote: RemoteIndex) => (d: StoreDocument) => ({
  ...d.metadata,
  source: sourceOf(d),
  [remote.textKey]: d.pageContent.slice(0, REMOTE_TEXT_MAX),
});

/**
 * A store with a remote index: the vectors go there, inside the database transaction (after the rows
 * are written, before the commit), so the index and the record manager move together.
 */
async function prepareRemoteWrite(p: PreparedUpsert, remote: RemoteIndex, plan: UpsertPlan): Promise<ChunkWrite> {
  const vectors = await embedAdded(p, plan);
  if (vectors) {
    const dims = await remote.dimension();
    if (dims !== undefined && dims !== vectors[0].length)
      throw new AppError(
        "unprocessable",
        `${remote.name} holds ${dims}-dimension vectors, but the embeddings model gives ${vectors[0].length} dimensions. Use an index of ${vectors[0].length} dimensions (or the model it was made for).`,
      );
  }
  const remoteMetadata = remoteMetadataOf(remote);
  return {
    collection: p.collection,
    plan,
    onWritten: async ({ added, updated, deletedIds }) => {
      if (added.length && vectors)
        await remote.upsert(
          added.map((a) => ({ id: a.id, vector: vectors[a.index], metadata: remoteMetadata(a.document) })),
        );
      if (updated.length)
        await remote.setMetadata(updated.map((u) => ({ id: u.id, metadata: remoteMetadata(u.document) })));
      if (deletedIds.length) await remote.delete(deletedIds);
    },
  };
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
  if (p.remote) return prepareRemoteWrite(p, p.remote, plan);
  return { collection: p.collection, plan, vectors: await embedNew(p, plan) };
}

/** The process's chunk store on the app database. */
export const documentStore: DocumentStoreAccess = {
  async upsert(batch) {
    // A server without pgvector refuses a vector store before any model call.
    if (batch.some((p) => p.embed && !p.remote)) await assertEmbeddingsTable();
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

  async remoteSearch({ collection, remote, vector, k, scoreThreshold }) {
    const hits = (await remote.query(vector, k)).filter(
      (h) => scoreThreshold === undefined || h.score >= scoreThreshold,
    );
    const stored = new Map(
      (
        await findChunksByIds(
          collection,
          hits.map((h) => h.id),
        )
      ).map((c) => [c.id, c]),
    );
    // Our chunks come from the database; a record written by another tool, from its own metadata.
    return hits.flatMap((h) => {
      const chunk = stored.get(h.id);
      if (chunk) return [{ ...chunk, score: h.score }];
      const text = h.metadata?.[remote.textKey];
      if (typeof text !== "string" || !text) return [];
      const { [remote.textKey]: _, ...metadata } = h.metadata ?? {};
      return [{ id: h.id, pageContent: text, metadata, score: h.score }];
    });
  },

  count: (collection) => countChunks(collection),

  async clear(collection, remote) {
    if (remote) {
      const ids = await findChunkIds(collection);
      for (let i = 0; i < ids.length; i += 500) await remote.delete(ids.slice(i, i + 500));
    }
    return deleteChunks(collection);
  },
};
