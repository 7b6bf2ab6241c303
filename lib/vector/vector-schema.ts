import { AppError } from "../errors";

/**
 * The embeddings table, created on first use of a vector store rather than by a migration: it
 * needs the pgvector extension, which embedded PGlite has and a PostgreSQL server may lack. A
 * server without it still migrates and runs everything else (the keyword store included); only a
 * vector store answers with an error naming the missing extension.
 */

type RawDb = { $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number> };

export const EMBEDDINGS_TABLE = "document_chunk_embeddings";

const ensured = new WeakSet<object>();

/** The message a vector store gives when the database has no pgvector. */
export const MISSING_PGVECTOR_MESSAGE =
  'The vector store needs the PostgreSQL extension "vector" (pgvector), which this database server does not have. ' +
  "Install pgvector on the server (https://github.com/pgvector/pgvector) and let the app create it (CREATE EXTENSION vector), " +
  "or use the Keyword Store node, which needs no extension.";

function isMissingExtension(e: unknown): boolean {
  const text = `${e instanceof Error ? e.message : String(e)} ${JSON.stringify((e as { cause?: unknown })?.cause ?? "")}`;
  return /extension "vector"|vector\.control|type "vector" does not exist|extension.*vector.*not available/i.test(text);
}

/** Creates the pgvector extension and the embeddings table once per database client. */
export async function ensureVectorSchema(db: RawDb): Promise<void> {
  if (ensured.has(db)) return;
  try {
    await db.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS vector");
    // The collection is repeated here so a search scans this table alone; exact (brute-force)
    // cosine search: an HNSW index builds and inserts far too slowly on embedded PGlite.
    await db.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS ${EMBEDDINGS_TABLE} (
        "chunkId" uuid PRIMARY KEY REFERENCES "DocumentChunk"("id") ON DELETE CASCADE,
        "chatflowId" uuid NOT NULL,
        "nodeId" text NOT NULL,
        "dims" integer NOT NULL,
        "embedding" vector NOT NULL
      )`,
    );
    await db.$executeRawUnsafe(`CREATE INDEX IF NOT EXISTS ${EMBEDDINGS_TABLE}_collection_idx ON ${EMBEDDINGS_TABLE} ("chatflowId", "nodeId")`);
  } catch (e) {
    if (isMissingExtension(e)) throw new AppError("not_configured", MISSING_PGVECTOR_MESSAGE, { cause: e });
    throw e;
  }
  ensured.add(db);
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
    throw new AppError("upstream_error", `The embeddings model returned a ${v.length}-dimension vector; the vector store holds 1 to ${MAX_VECTOR_DIMENSIONS} dimensions.`);
  }
  if (!v.every((x) => Number.isFinite(x) && Math.abs(x) <= FLOAT4_MAX)) {
    throw new AppError("upstream_error", "The embeddings model returned a vector with non-finite or out-of-range numbers.");
  }
  // pgvector stores float4: 9 significant digits keep every float4 exact and the text short.
  return `[${v.map((x) => (Number.isInteger(x) ? String(x) : x.toPrecision(9))).join(",")}]`;
}
