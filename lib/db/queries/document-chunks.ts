import { randomUUID } from "node:crypto";
import { getDb } from "../client";
import { AppError } from "@/common/errors";
import type { StoredRecord, UpsertPlan } from "../../vector/record-manager";
import type { ChunkCollection, ScoredDocument, StoreDocument, UpsertOutcome } from "../../vector/types";

/**
 * Every SQL statement of the vector and keyword stores, the same on embedded PGlite and a
 * PostgreSQL server. Chunks live in "DocumentChunk" (see prisma/schema.prisma), embeddings in
 * document_chunk_embeddings (pgvector, cosine distance; created by the migration
 * 20261125120000_document_chunk_embeddings where the server has pgvector), keyword search uses the
 * chunk's tsvector and its GIN index. Vectors come in computed: this module calls no model.
 */

type Raw = {
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
};

const EMBEDDINGS_TABLE = "document_chunk_embeddings";
const ROWS_PER_INSERT = 2000;
const TX_OPTIONS = { timeout: 10 * 60_000, maxWait: 30_000 };
const WHERE_COLLECTION = `"chatflowId" = $1::uuid AND "nodeId" = $2`;

type Row = { id: string; content: string; metadata: Record<string, unknown>; score: number };

const toScored = (r: Row): ScoredDocument => ({
  id: r.id,
  pageContent: r.content,
  metadata: r.metadata ?? {},
  score: Number(r.score),
});

/** The message a vector store gives when the database has no embeddings table (no pgvector). */
export const MISSING_PGVECTOR_MESSAGE =
  'The vector store needs the PostgreSQL extension "vector" (pgvector), which this database server did not have when it was migrated. ' +
  "Install pgvector on the server (https://github.com/pgvector/pgvector) and run prisma/migrations/20261125120000_document_chunk_embeddings/migration.sql " +
  "on the database once (psql -f), or use the Keyword Store node, which needs no extension.";

const withTable = new WeakSet<object>();

/**
 * Refuses (503 not_configured, naming pgvector) when the embeddings table is missing: its migration
 * skips it on a server without pgvector. Checked per client until found, so a table created later
 * is used without a restart.
 */
export async function assertEmbeddingsTable(): Promise<void> {
  const db = await getDb();
  if (withTable.has(db)) return;
  const rows = await db.$queryRawUnsafe<{ found: boolean }[]>(
    `SELECT to_regclass('${EMBEDDINGS_TABLE}') IS NOT NULL AS "found"`,
  );
  if (!rows[0]?.found) throw new AppError("not_configured", MISSING_PGVECTOR_MESSAGE);
  withTable.add(db);
}

/** pgvector's limit for the `vector` type. */
const MAX_VECTOR_DIMENSIONS = 16_000;
/** Largest float4 (pgvector stores single-precision floats). */
const FLOAT4_MAX = 3.4028234663852886e38;

/** A vector as pgvector's text input ('[1,2,3]'), refusing what pgvector cannot store. */
export function vectorLiteral(v: number[]): string {
  // pgvector refuses an empty vector, more than 16,000 dimensions and numbers beyond float4: the
  // model's answer is at fault, so it is named as such rather than failing the query with a 500.
  if (v.length === 0 || v.length > MAX_VECTOR_DIMENSIONS) {
    throw new AppError(
      "upstream_error",
      `The embeddings model returned a ${v.length}-dimension vector; the vector store holds 1 to ${MAX_VECTOR_DIMENSIONS} dimensions.`,
    );
  }
  if (!v.every((x) => Number.isFinite(x) && Math.abs(x) <= FLOAT4_MAX)) {
    throw new AppError(
      "upstream_error",
      "The embeddings model returned a vector with non-finite or out-of-range numbers.",
    );
  }
  // pgvector stores float4: 9 significant digits keep every float4 exact and the text short.
  return `[${v.map((x) => (Number.isInteger(x) ? String(x) : x.toPrecision(9))).join(",")}]`;
}

/** Embeddings checked and encoded for pgvector (see encodeVectors). */
export type EncodedVectors = { readonly literals: string[] };

/**
 * Checks and encodes embeddings for storage, refusing what pgvector cannot store (502: the model's
 * fault). Done right after the model answers, before anything is written.
 */
export function encodeVectors(vectors: number[][]): EncodedVectors {
  return { literals: vectors.map(vectorLiteral) };
}

/** A collection's stored records: all of them, or those of the given sources. */
export async function findStoredRecords({
  collection,
  sources,
}: {
  collection: ChunkCollection;
  sources?: string[];
}): Promise<StoredRecord[]> {
  const db = await getDb();
  const { chatflowId, nodeId } = collection;
  const base = `SELECT "id", "source", "contentHash", "metadata" FROM "DocumentChunk" WHERE ${WHERE_COLLECTION}`;
  if (!sources) return db.$queryRawUnsafe<StoredRecord[]>(base, chatflowId, nodeId);
  if (sources.length === 0) return [];
  return db.$queryRawUnsafe<StoredRecord[]>(`${base} AND "source" = ANY($3::text[])`, chatflowId, nodeId, sources);
}

/** The dimension of a collection's stored embeddings (undefined when it has none). */
export async function findStoredDimensions(collection: ChunkCollection): Promise<number | undefined> {
  const rows = await (await getDb()).$queryRawUnsafe<{ dims: number }[]>(
    `SELECT "dims" FROM ${EMBEDDINGS_TABLE} WHERE ${WHERE_COLLECTION} LIMIT 1`,
    collection.chatflowId,
    collection.nodeId,
  );
  return rows[0]?.dims;
}

/** What one collection's write did, for a hook that mirrors it elsewhere (a remote vector index). */
export interface WrittenChunks {
  /** The chunks inserted, with their new ids and their index in `plan.add`. */
  added: { id: string; index: number; document: StoreDocument }[];
  /** The chunks whose metadata changed. */
  updated: { id: string; document: StoreDocument }[];
  /** The ids deleted. */
  deletedIds: string[];
}

/**
 * One collection's planned write, with the embeddings of `plan.add` (pgvector stores) in the same
 * order. `onWritten` runs inside the transaction after the rows are written: when it throws, none of
 * the upsert lands (a remote index that refuses the vectors leaves the record manager as it was).
 */
export type ChunkWrite = {
  collection: ChunkCollection;
  plan: UpsertPlan;
  vectors?: EncodedVectors;
  onWritten?: (written: WrittenChunks) => Promise<void>;
};

// One statement per batch with array parameters (unnest): far fewer parameters to bind than a
// multi-row VALUES list, which matters most on embedded PGlite. Returns the chunks really inserted:
// a concurrent upsert of the same chunk may have stored it since the plan was made, and then this
// one skips it (ON CONFLICT), so counts must come from the database, not from the plan.
async function insertChunks(
  tx: Raw,
  c: ChunkCollection,
  plan: UpsertPlan,
  vectors?: string[],
): Promise<WrittenChunks["added"]> {
  const ids = plan.add.map(() => randomUUID());
  const added: WrittenChunks["added"] = [];
  for (let start = 0; start < plan.add.length; start += ROWS_PER_INSERT) {
    const slice = plan.add.slice(start, start + ROWS_PER_INSERT);
    const sliceIds = ids.slice(start, start + ROWS_PER_INSERT);
    const inserted = await tx.$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO "DocumentChunk" ("id", "chatflowId", "nodeId", "source", "contentHash", "content", "metadata")
       SELECT t.id, $2::uuid, $3, t.source, t.hash, t.content, t.metadata::jsonb
       FROM unnest($1::uuid[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(id, source, hash, content, metadata)
       ON CONFLICT ("chatflowId", "nodeId", "source", "contentHash") DO NOTHING
       RETURNING "id"`,
      sliceIds,
      c.chatflowId,
      c.nodeId,
      slice.map((x) => x.source),
      slice.map((x) => x.contentHash),
      slice.map((x) => x.document.pageContent),
      slice.map((x) => JSON.stringify(x.document.metadata)),
    );
    const kept = new Set(inserted.map((r) => r.id));
    sliceIds.forEach((id, i) => {
      if (kept.has(id)) added.push({ id, index: start + i, document: slice[i].document });
    });
    if (!vectors || inserted.length === 0) continue;
    const dims = vectors[0].split(",").length;
    const rows = sliceIds.map((id, i) => ({ id, v: vectors[start + i] })).filter((r) => kept.has(r.id));
    await tx.$executeRawUnsafe(
      `INSERT INTO ${EMBEDDINGS_TABLE} ("chunkId", "chatflowId", "nodeId", "dims", "embedding")
       SELECT t.id, $3::uuid, $4, $5::int, t.embedding::vector FROM unnest($1::uuid[], $2::text[]) AS t(id, embedding)`,
      rows.map((r) => r.id),
      rows.map((r) => r.v),
      c.chatflowId,
      c.nodeId,
      dims,
    );
  }
  return added;
}

/** Writes a plan and counts what the database really did (rows gone or added meanwhile are skipped). */
async function applyPlan(
  tx: Raw,
  c: ChunkCollection,
  plan: UpsertPlan,
  vectors?: string[],
  onWritten?: ChunkWrite["onWritten"],
): Promise<UpsertOutcome> {
  const added = await insertChunks(tx, c, plan, vectors);
  const updated: WrittenChunks["updated"] = [];
  for (const u of plan.update) {
    const n = await tx.$executeRawUnsafe(
      `UPDATE "DocumentChunk" SET "metadata" = $2::jsonb WHERE "id" = $1::uuid`,
      u.id,
      JSON.stringify(u.document.metadata),
    );
    if (n) updated.push(u);
  }
  const deletedIds = plan.deleteIds.length
    ? (
        await tx.$queryRawUnsafe<{ id: string }[]>(
          `DELETE FROM "DocumentChunk" WHERE "id" = ANY($1::uuid[]) RETURNING "id"`,
          plan.deleteIds,
        )
      ).map((r) => r.id)
    : [];
  await onWritten?.({ added, updated, deletedIds });
  const numUpdated = updated.length;
  const numSkipped = plan.numSkipped + (plan.add.length - added.length) + (plan.update.length - numUpdated);
  return {
    numAdded: added.length,
    numUpdated,
    numSkipped,
    numDeleted: deletedIds.length,
    added: added.map((a) => a.document),
  };
}

/**
 * Every chunk gets a tsvector (keyword search), which PostgreSQL caps at 1 MiB: a chunk of many
 * distinct short words past ~350 KiB of text (no splitter connected, or a huge chunk size) fails
 * the insert. How big the tsvector gets depends on the words, so the database decides; its refusal
 * is the caller's to fix, not a server error.
 */
function chunkTooBig(e: unknown, nodeId: string): unknown {
  if (!/too long for tsvector/i.test(String((e as { message?: unknown })?.message ?? ""))) return e;
  return new AppError(
    "unprocessable",
    `Store node ${nodeId}: a chunk is too big for its search index (PostgreSQL caps it at 1 MiB); connect a text splitter to its loader (or lower the splitter's chunk size).`,
  );
}

/** Writes every planned upsert in one transaction (all land, or none); returns what each really did. */
export async function writeChunkPlans(writes: ChunkWrite[]): Promise<UpsertOutcome[]> {
  return (await getDb()).$transaction(async (tx) => {
    const outcomes: UpsertOutcome[] = [];
    for (const { collection, plan, vectors, onWritten } of writes) {
      outcomes.push(
        await applyPlan(tx, collection, plan, vectors?.literals, onWritten).catch((e: unknown) =>
          Promise.reject(chunkTooBig(e, collection.nodeId)),
        ),
      );
    }
    return outcomes;
  }, TX_OPTIONS);
}

/** The k chunks nearest to `vector` (cosine), best first; score = 1 - distance. */
export async function findNearestChunks({
  collection,
  vector,
  k,
}: {
  collection: ChunkCollection;
  vector: number[];
  k: number;
}): Promise<ScoredDocument[]> {
  const rows = await (await getDb()).$queryRawUnsafe<Row[]>(
    `WITH top AS (
       SELECT "chunkId", "embedding" <=> $3::vector AS "distance" FROM ${EMBEDDINGS_TABLE}
       WHERE ${WHERE_COLLECTION} AND "dims" = $4::int ORDER BY "distance", "chunkId" LIMIT $5::int
     )
     SELECT c."id", c."content", c."metadata", 1 - top."distance" AS "score"
     FROM top JOIN "DocumentChunk" c ON c."id" = top."chunkId" ORDER BY top."distance", c."id"`,
    collection.chatflowId,
    collection.nodeId,
    vectorLiteral(vector),
    vector.length,
    k,
  );
  return rows.map(toScored);
}

/** A query's words as an OR of terms for to_tsquery (letters and digits only, so no tsquery syntax gets in). */
export function keywordQuery(text: string): string {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
  return words.join(" | ");
}

/** The k chunks ranking best for the query's words (full-text, OR of the words), best first. */
export async function findKeywordChunks({
  collection,
  query,
  k,
}: {
  collection: ChunkCollection;
  query: string;
  k: number;
}): Promise<ScoredDocument[]> {
  const terms = keywordQuery(query);
  if (!terms) return [];
  const rows = await (await getDb()).$queryRawUnsafe<Row[]>(
    `SELECT c."id", c."content", c."metadata", ts_rank_cd(c."searchVector", q, 32) AS "score"
     FROM "DocumentChunk" c, to_tsquery('english', $3) q
     WHERE c."chatflowId" = $1::uuid AND c."nodeId" = $2 AND c."searchVector" @@ q
     ORDER BY "score" DESC, c."id" LIMIT $4::int`,
    collection.chatflowId,
    collection.nodeId,
    terms,
    k,
  );
  return rows.map(toScored);
}

/** Chunks stored in a collection. */
export async function countChunks({ chatflowId, nodeId }: ChunkCollection): Promise<number> {
  const rows = await (await getDb()).$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS "n" FROM "DocumentChunk" WHERE ${WHERE_COLLECTION}`,
    chatflowId,
    nodeId,
  );
  return rows[0]?.n ?? 0;
}

/** Chunks by id, in the order of `ids` (ids not stored are left out). */
export async function findChunksByIds(
  collection: ChunkCollection,
  ids: string[],
): Promise<Omit<ScoredDocument, "score">[]> {
  const valid = ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (valid.length === 0) return [];
  const rows = await (await getDb()).$queryRawUnsafe<Omit<Row, "score">[]>(
    `SELECT "id", "content", "metadata" FROM "DocumentChunk" WHERE ${WHERE_COLLECTION} AND "id" = ANY($3::uuid[])`,
    collection.chatflowId,
    collection.nodeId,
    valid,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return valid.flatMap((id) => {
    const r = byId.get(id);
    return r ? [{ id, pageContent: r.content, metadata: r.metadata ?? {} }] : [];
  });
}

/** A collection's chunks in the order they were written, at most `limit` (a loader reading a document store). */
export async function findChunksInOrder(
  { chatflowId, nodeId }: ChunkCollection,
  limit: number,
): Promise<StoreDocument[]> {
  const rows = await (await getDb()).$queryRawUnsafe<Omit<Row, "score" | "id">[]>(
    `SELECT "content", "metadata" FROM "DocumentChunk" WHERE ${WHERE_COLLECTION} ORDER BY "createdAt", "id" LIMIT $3`,
    chatflowId,
    nodeId,
    limit,
  );
  return rows.map((r) => ({ pageContent: r.content, metadata: r.metadata ?? {} }));
}

/** A collection's chunk ids (for clearing a remote index beside the rows). */
export async function findChunkIds({ chatflowId, nodeId }: ChunkCollection): Promise<string[]> {
  const rows = await (await getDb()).$queryRawUnsafe<{ id: string }[]>(
    `SELECT "id" FROM "DocumentChunk" WHERE ${WHERE_COLLECTION}`,
    chatflowId,
    nodeId,
  );
  return rows.map((r) => r.id);
}

/** Deletes a collection's chunks (their embeddings CASCADE); returns how many. */
export async function deleteChunks({ chatflowId, nodeId }: ChunkCollection): Promise<number> {
  return (await getDb()).$executeRawUnsafe(`DELETE FROM "DocumentChunk" WHERE ${WHERE_COLLECTION}`, chatflowId, nodeId);
}
