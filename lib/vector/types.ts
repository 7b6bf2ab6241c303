/**
 * Types shared by the document nodes, the chunk store and the upsert service. Server-side, but free
 * of Prisma and Request so node runtimes can depend on them.
 */

/** A document or chunk: text plus metadata (always including `source`). */
export interface StoreDocument {
  pageContent: string;
  metadata: Record<string, unknown>;
}

/** A document found by a search, with its score (higher is better, 0..1). */
export interface ScoredDocument extends StoreDocument {
  id: string;
  score: number;
}

/** An uploaded file after the upload checks: its type comes from its content, not its name. */
export interface UpsertFile {
  /** Display name without path parts; recorded as the chunks' `source`. */
  name: string;
  mime: string;
  ext: string;
  bytes: Buffer;
}

export type CleanupMode = "incremental" | "full" | "none";

/** One chatflow node's chunks. */
export interface ChunkCollection {
  chatflowId: string;
  nodeId: string;
}

export interface UpsertCounts {
  numAdded: number;
  numUpdated: number;
  numSkipped: number;
  numDeleted: number;
}

/** Embeds texts (documents or a query) into vectors of one dimension. */
export type EmbedFn = (texts: string[]) => Promise<number[][]>;

/**
 * A vector index on another server (Pinecone, Qdrant, Chroma) holding a store node's vectors by
 * chunk id. The chunks' text, metadata and the record manager's state stay in our database, which
 * stays the truth: a search maps the index's ids back to stored chunks (ids it does not know are
 * dropped), and an upsert writes the index inside the database transaction, so a refused write
 * leaves both as they were.
 */
export interface RemoteIndex {
  /** How errors name it: "Pinecone index “docs” (namespace “faq”)". */
  readonly name: string;
  /** The index's vector size when it has a fixed one (checked before anything is written). */
  dimension(): Promise<number | undefined>;
  upsert(points: { id: string; vector: number[]; metadata: Record<string, unknown> }[]): Promise<void>;
  setMetadata(points: { id: string; metadata: Record<string, unknown> }[]): Promise<void>;
  delete(ids: string[]): Promise<void>;
  /**
   * The k nearest records with a similarity score (higher is better), filtered as the node says, with
   * their metadata: a record written elsewhere (an index filled by another tool) is read from it.
   */
  query(vector: number[], k: number): Promise<{ id: string; score: number; metadata?: Record<string, unknown> }[]>;
  /** The metadata key holding a record's text (LangChain's and Flowise's "text"). */
  readonly textKey: string;
}

/** What one store node wants written: prepared without touching the database. */
export interface PreparedUpsert {
  collection: ChunkCollection;
  documents: StoreDocument[];
  cleanup: CleanupMode;
  /** Present for vector stores: embeds the chunks that are new. */
  embed?: EmbedFn;
  /** Where the vectors go when not into our own pgvector table. */
  remote?: RemoteIndex;
}

export interface UpsertOutcome extends UpsertCounts {
  added: StoreDocument[];
}

/**
 * Database access for store nodes, handed to runtimes through the build context (the flow engine
 * itself stays free of the database). Implemented by lib/services/vector-store-db.ts (its SQL:
 * lib/db/queries/document-chunks.ts).
 */
export interface DocumentStoreAccess {
  /** Writes every prepared upsert in one transaction: all of them land, or none. */
  upsert(batch: PreparedUpsert[]): Promise<UpsertOutcome[]>;
  similaritySearch(args: {
    collection: ChunkCollection;
    vector: number[];
    k: number;
    scoreThreshold?: number;
  }): Promise<ScoredDocument[]>;
  keywordSearch(args: { collection: ChunkCollection; query: string; k: number }): Promise<ScoredDocument[]>;
  /** A search in a remote index, answered with the stored chunks its ids name. */
  remoteSearch(args: {
    collection: ChunkCollection;
    remote: RemoteIndex;
    vector: number[];
    k: number;
    scoreThreshold?: number;
  }): Promise<ScoredDocument[]>;
  count(collection: ChunkCollection): Promise<number>;
  /** Deletes the collection's chunks (and their vectors in `remote`, when the node has one). */
  clear(collection: ChunkCollection, remote?: RemoteIndex): Promise<number>;
}

/** What a loader node builds: reads its saved file/text, or the uploads it accepts. */
export interface DocumentSource {
  readonly kind: "documentSource";
  readonly label: string;
  /** Media types of uploads this loader reads (empty: it takes no uploads). */
  readonly accepts: readonly string[];
  /** Loads (and splits) documents: matching uploads replace the saved file for this upsert. */
  load(files: readonly UpsertFile[]): Promise<StoreDocument[]>;
}

/** Type guard for a built loader. */
export function isDocumentSource(x: unknown): x is DocumentSource {
  return typeof x === "object" && x !== null && (x as DocumentSource).kind === "documentSource";
}
