import { randomUUID } from "node:crypto";
import { storableText, storableJson } from "../db/storable-text";
import { AppError } from "../errors";
import { planUpsert, sourceOf, type StoredRecord, type UpsertPlan } from "./record-manager";
import type { ChunkCollection, DocumentStoreAccess, PreparedUpsert, ScoredDocument, StoreDocument, UpsertOutcome } from "./types";
import { EMBEDDINGS_TABLE, ensureVectorSchema, vectorLiteral } from "./vector-schema";

/**
 * The chunk store: every SQL statement of the vector and keyword stores, the same on embedded
 * PGlite and a PostgreSQL server. Chunks live in "DocumentChunk" (see prisma/schema.prisma),
 * embeddings in document_chunk_embeddings (pgvector, cosine distance), keyword search uses the
 * chunk's tsvector and its GIN index.
 */

type Raw = {
  $queryRawUnsafe<T = unknown>(sql: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
};
type RawDb = Raw & { $transaction<T>(fn: (tx: Raw) => Promise<T>, opts?: { timeout?: number; maxWait?: number }): Promise<T> };

const ROWS_PER_INSERT = 2000;
const TX_OPTIONS = { timeout: 10 * 60_000, maxWait: 30_000 };
const WHERE_COLLECTION = `"chatflowId" = $1::uuid AND "nodeId" = $2`;

type Row = { id: string; content: string; metadata: Record<string, unknown>; score: number };

const toScored = (r: Row): ScoredDocument => ({ id: r.id, pageContent: r.content, metadata: r.metadata ?? {}, score: Number(r.score) });

async function storedRecords(db: Raw, p: PreparedUpsert): Promise<StoredRecord[]> {
  const { chatflowId, nodeId } = p.collection;
  const base = `SELECT "id", "source", "contentHash", "metadata" FROM "DocumentChunk" WHERE ${WHERE_COLLECTION}`;
  if (p.cleanup === "full") return db.$queryRawUnsafe<StoredRecord[]>(base, chatflowId, nodeId);
  const sources = [...new Set(p.documents.map(sourceOf))];
  if (sources.length === 0) return [];
  return db.$queryRawUnsafe<StoredRecord[]>(`${base} AND "source" = ANY($3::text[])`, chatflowId, nodeId, sources);
}

async function storedDimensions(db: Raw, c: ChunkCollection): Promise<number | undefined> {
  const rows = await db.$queryRawUnsafe<{ dims: number }[]>(
    `SELECT "dims" FROM ${EMBEDDINGS_TABLE} WHERE ${WHERE_COLLECTION} LIMIT 1`,
    c.chatflowId,
    c.nodeId,
  );
  return rows[0]?.dims;
}

function dimensionMismatch(stored: number, given: number): AppError {
  return new AppError(
    "unprocessable",
    `This vector store holds ${stored}-dimension embeddings, but the embeddings model gives ${given} dimensions. Clear the store (or use the same model) and upsert again.`,
  );
}

/** Embeds the new chunks of a plan (outside the transaction: model calls can be slow). */
async function embedNew(db: RawDb, p: PreparedUpsert, plan: UpsertPlan): Promise<string[] | undefined> {
  if (!p.embed || plan.add.length === 0) return undefined;
  const vectors = await p.embed(plan.add.map((c) => c.document.pageContent));
  if (vectors.length !== plan.add.length) throw new AppError("upstream_error", "The embeddings model returned a wrong number of vectors.");
  const dims = vectors[0].length;
  if (vectors.some((v) => v.length !== dims)) throw new AppError("upstream_error", "The embeddings model returned vectors of different sizes.");
  const stored = await storedDimensions(db, p.collection);
  if (stored !== undefined && stored !== dims) throw dimensionMismatch(stored, dims);
  return vectors.map(vectorLiteral);
}

// One statement per batch with array parameters (unnest): far fewer parameters to bind than a
// multi-row VALUES list, which matters most on embedded PGlite. Returns the chunks really inserted:
// a concurrent upsert of the same chunk may have stored it since the plan was made, and then this
// one skips it (ON CONFLICT), so counts must come from the database, not from the plan.
async function insertChunks(tx: Raw, c: ChunkCollection, plan: UpsertPlan, vectors?: string[]): Promise<StoreDocument[]> {
  const ids = plan.add.map(() => randomUUID());
  const added: StoreDocument[] = [];
  for (let start = 0; start < plan.add.length; start += ROWS_PER_INSERT) {
    const slice = plan.add.slice(start, start + ROWS_PER_INSERT);
    const sliceIds = ids.slice(start, start + ROWS_PER_INSERT);
    const inserted = await tx.$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO "DocumentChunk" ("id", "chatflowId", "nodeId", "source", "contentHash", "content", "metadata")
       SELECT t.id, $2::uuid, $3, t.source, t.hash, t.content, t.metadata::jsonb
       FROM unnest($1::uuid[], $4::text[], $5::text[], $6::text[], $7::text[]) AS t(id, source, hash, content, metadata)
       ON CONFLICT ("chatflowId", "nodeId", "source", "contentHash") DO NOTHING
       RETURNING "id"`,
      sliceIds, c.chatflowId, c.nodeId,
      slice.map((x) => x.source), slice.map((x) => x.contentHash), slice.map((x) => x.document.pageContent),
      slice.map((x) => JSON.stringify(x.document.metadata)),
    );
    const kept = new Set(inserted.map((r) => r.id));
    sliceIds.forEach((id, i) => kept.has(id) && added.push(slice[i].document));
    if (!vectors || inserted.length === 0) continue;
    const dims = vectors[0].split(",").length;
    const rows = sliceIds.map((id, i) => ({ id, v: vectors[start + i] })).filter((r) => kept.has(r.id));
    await tx.$executeRawUnsafe(
      `INSERT INTO ${EMBEDDINGS_TABLE} ("chunkId", "chatflowId", "nodeId", "dims", "embedding")
       SELECT t.id, $3::uuid, $4, $5::int, t.embedding::vector FROM unnest($1::uuid[], $2::text[]) AS t(id, embedding)`,
      rows.map((r) => r.id), rows.map((r) => r.v), c.chatflowId, c.nodeId, dims,
    );
  }
  return added;
}

/** Writes a plan and counts what the database really did (rows gone or added meanwhile are skipped). */
async function applyPlan(tx: Raw, c: ChunkCollection, plan: UpsertPlan, vectors?: string[]): Promise<UpsertOutcome> {
  const added = await insertChunks(tx, c, plan, vectors);
  let numUpdated = 0;
  for (const u of plan.update) {
    numUpdated += await tx.$executeRawUnsafe(`UPDATE "DocumentChunk" SET "metadata" = $2::jsonb WHERE "id" = $1::uuid`, u.id, JSON.stringify(u.document.metadata));
  }
  const numDeleted = plan.deleteIds.length
    ? await tx.$executeRawUnsafe(`DELETE FROM "DocumentChunk" WHERE "id" = ANY($1::uuid[])`, plan.deleteIds)
    : 0;
  const numSkipped = plan.numSkipped + (plan.add.length - added.length) + (plan.update.length - numUpdated);
  return { numAdded: added.length, numUpdated, numSkipped, numDeleted, added };
}

/**
 * Parsed documents may hold NUL characters or lone surrogates (a JSON file's `\u0000` escape, a
 * PDF's text layer), which PostgreSQL refuses; they are cleaned here, before hashing, where every
 * chunk enters storage.
 */
function storableDocument(d: StoreDocument): StoreDocument {
  return { pageContent: storableText(d.pageContent), metadata: storableJson(d.metadata) as Record<string, unknown> };
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

/** A query's words as an OR of terms for to_tsquery (letters and digits only, so no tsquery syntax gets in). */
export function keywordQuery(text: string): string {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
  return words.join(" | ");
}

/** The document store over a Prisma client (any object offering raw queries and transactions). */
export function createDocumentStore(getDb: () => Promise<RawDb>): DocumentStoreAccess {
  return {
    async upsert(batch) {
      const cleaned = batch.map((given) => ({ ...given, documents: given.documents.map(storableDocument) }));
      const db = await getDb();
      if (batch.some((p) => p.embed)) await ensureVectorSchema(db);
      const prepared: { p: PreparedUpsert; plan: UpsertPlan; vectors?: string[] }[] = [];
      for (const p of cleaned) {
        const plan = planUpsert(p.documents, await storedRecords(db, p), p.cleanup);
        prepared.push({ p, plan, vectors: await embedNew(db, p, plan) });
      }
      return db.$transaction(async (tx) => {
        const outcomes: UpsertOutcome[] = [];
        for (const { p, plan, vectors } of prepared) {
          outcomes.push(await applyPlan(tx, p.collection, plan, vectors).catch((e: unknown) => Promise.reject(chunkTooBig(e, p.collection.nodeId))));
        }
        return outcomes;
      }, TX_OPTIONS);
    },

    async similaritySearch({ collection, vector, k, scoreThreshold }) {
      const db = await getDb();
      await ensureVectorSchema(db);
      const stored = await storedDimensions(db, collection);
      if (stored === undefined) return [];
      if (stored !== vector.length) throw dimensionMismatch(stored, vector.length);
      const rows = await db.$queryRawUnsafe<Row[]>(
        `WITH top AS (
           SELECT "chunkId", "embedding" <=> $3::vector AS "distance" FROM ${EMBEDDINGS_TABLE}
           WHERE ${WHERE_COLLECTION} AND "dims" = $4::int ORDER BY "distance", "chunkId" LIMIT $5::int
         )
         SELECT c."id", c."content", c."metadata", 1 - top."distance" AS "score"
         FROM top JOIN "DocumentChunk" c ON c."id" = top."chunkId" ORDER BY top."distance", c."id"`,
        collection.chatflowId, collection.nodeId, vectorLiteral(vector), vector.length, k,
      );
      return rows.map(toScored).filter((d) => scoreThreshold === undefined || d.score >= scoreThreshold);
    },

    async keywordSearch({ collection, query, k }) {
      const terms = keywordQuery(query);
      if (!terms) return [];
      const db = await getDb();
      const rows = await db.$queryRawUnsafe<Row[]>(
        `SELECT c."id", c."content", c."metadata", ts_rank_cd(c."searchVector", q, 32) AS "score"
         FROM "DocumentChunk" c, to_tsquery('english', $3) q
         WHERE c."chatflowId" = $1::uuid AND c."nodeId" = $2 AND c."searchVector" @@ q
         ORDER BY "score" DESC, c."id" LIMIT $4::int`,
        collection.chatflowId, collection.nodeId, terms, k,
      );
      return rows.map(toScored);
    },

    async count({ chatflowId, nodeId }) {
      const db = await getDb();
      const rows = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS "n" FROM "DocumentChunk" WHERE ${WHERE_COLLECTION}`, chatflowId, nodeId);
      return rows[0]?.n ?? 0;
    },

    async clear({ chatflowId, nodeId }) {
      const db = await getDb();
      return db.$executeRawUnsafe(`DELETE FROM "DocumentChunk" WHERE ${WHERE_COLLECTION}`, chatflowId, nodeId);
    },
  };
}

