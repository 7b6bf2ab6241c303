import {
  ChromaClient,
  ChromaForbiddenError,
  ChromaNotFoundError,
  ChromaUnauthorizedError,
  type Collection,
  type Metadata,
} from "chromadb";
import { AppError } from "@/common/errors";
import type { RemoteIndex } from "../types";
import { flatMetadata } from "./metadata";

export interface ChromaTarget {
  /** The server's URL (http://localhost:8000, or https://api.trychroma.com for Chroma Cloud). */
  url: URL;
  /** Sent as Chroma's `x-chroma-token` header. */
  apiKey?: string;
  tenant: string;
  database: string;
  collection: string;
  /** Chroma's `where` filter on searches ({"source": "handbook"}, {"$and": [...]}). */
  filter?: Record<string, unknown>;
  /** Checks the server's host under the operator's outbound rules before the first request. */
  checkHost(url: URL): Promise<void>;
  /** Who asks, for errors. */
  requester: string;
}

/** Records per upsert or delete request (below Chroma's default max_batch_size). */
const BATCH = 100;
/** The key our records' text travels under between this adapter and the store (Chroma keeps it as the document). */
const TEXT_KEY = "document";

/** Chroma metadata: scalars only, so a list is kept as its JSON text. */
function chromaMetadata(metadata: Record<string, unknown>): Metadata {
  const out: Metadata = {};
  for (const [key, value] of Object.entries(flatMetadata(metadata)))
    out[key] = Array.isArray(value) ? JSON.stringify(value) : value;
  return out;
}

/** A similarity (higher is better) from Chroma's distance in the collection's space. */
function similarity(space: string, distance: number): number {
  if (space === "l2") return 1 / (1 + distance);
  return 1 - distance; // cosine and ip distances are 1 - similarity
}

/**
 * A Chroma collection through its official client (chromadb, the v2 HTTP API): made when missing
 * (cosine space), records by our chunk ids with the chunk's text as Chroma's document and its
 * metadata beside it, as LangChain (and so Flowise) writes them. The collection has no declared
 * dimension, so a stored record's embedding says it. The client sends its own requests (it takes no
 * fetch), so the host is checked under the operator's outbound rules first; errors are 502 naming the
 * collection, a 401/403 as the token being refused.
 */
export function chromaCollection(t: ChromaTarget): RemoteIndex {
  const name = `Chroma collection “${t.collection}” at ${t.url.host}`;
  const fail = (what: string, err: unknown): never => {
    if (err instanceof AppError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError(
      "upstream_error",
      err instanceof ChromaUnauthorizedError || err instanceof ChromaForbiddenError
        ? `${t.requester}: Chroma at ${t.url.host} refused the credential while trying to ${what} (check the token, tenant and database).`
        : err instanceof ChromaNotFoundError
          ? `${t.requester}: ${name} (tenant “${t.tenant}”, database “${t.database}”) was not found while trying to ${what}.`
          : `${t.requester}: ${name} failed to ${what}: ${message.slice(0, 300)}`,
      { cause: err },
    );
  };
  let ready: Promise<Collection> | undefined;
  const collection = () => {
    ready ??= (async () => {
      await t.checkHost(t.url);
      const client = new ChromaClient({
        host: t.url.hostname,
        port: t.url.port ? Number(t.url.port) : t.url.protocol === "https:" ? 443 : 80,
        ssl: t.url.protocol === "https:",
        tenant: t.tenant,
        database: t.database,
        ...(t.apiKey ? { headers: { "x-chroma-token": t.apiKey } } : {}),
      });
      return client
        .getOrCreateCollection({
          name: t.collection,
          embeddingFunction: null,
          configuration: { hnsw: { space: "cosine" } },
        })
        .catch((err) => fail("open the collection", err));
    })().catch((err) => {
      ready = undefined;
      throw err;
    });
    return ready;
  };
  const split = (metadata: Record<string, unknown>) => {
    const { [TEXT_KEY]: text, ...rest } = metadata;
    return { document: typeof text === "string" ? text : "", metadata: chromaMetadata(rest) };
  };
  return {
    name,
    textKey: TEXT_KEY,
    async dimension() {
      const c = await collection();
      const some = await c.get({ limit: 1, include: ["embeddings"] }).catch((err) => fail("read the collection", err));
      const first = some.embeddings?.[0];
      return Array.isArray(first) && first.length ? first.length : undefined;
    },
    async upsert(points) {
      const c = await collection();
      for (let i = 0; i < points.length; i += BATCH) {
        const batch = points.slice(i, i + BATCH).map((p) => ({ id: p.id, vector: p.vector, ...split(p.metadata) }));
        await c
          .upsert({
            ids: batch.map((b) => b.id),
            embeddings: batch.map((b) => b.vector),
            metadatas: batch.map((b) => b.metadata),
            documents: batch.map((b) => b.document),
          })
          .catch((err) => fail("store vectors", err));
      }
    },
    async setMetadata(points) {
      const c = await collection();
      for (let i = 0; i < points.length; i += BATCH) {
        const batch = points.slice(i, i + BATCH).map((p) => ({ id: p.id, ...split(p.metadata) }));
        await c
          .update({
            ids: batch.map((b) => b.id),
            metadatas: batch.map((b) => b.metadata),
            documents: batch.map((b) => b.document),
          })
          .catch((err) => fail("update metadata", err));
      }
    },
    async delete(ids) {
      if (ids.length === 0) return;
      const c = await collection();
      for (let i = 0; i < ids.length; i += BATCH)
        await c.delete({ ids: ids.slice(i, i + BATCH) }).catch((err) => fail("delete vectors", err));
    },
    async query(vector, k) {
      const c = await collection();
      const res = await c
        .query({
          queryEmbeddings: [vector],
          nResults: k,
          include: ["documents", "metadatas", "distances"],
          ...(t.filter ? { where: t.filter as never } : {}),
        })
        .catch((err) => fail("search", err));
      const space = (c.configuration as { hnsw?: { space?: string } } | undefined)?.hnsw?.space ?? "l2";
      const ids = res.ids[0] ?? [];
      return ids.map((id, i) => ({
        id,
        score: similarity(space, res.distances?.[0]?.[i] ?? 1),
        metadata: { ...(res.metadatas?.[0]?.[i] ?? {}), [TEXT_KEY]: res.documents?.[0]?.[i] ?? "" },
      }));
    },
  };
}
