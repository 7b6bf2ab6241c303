import { QdrantClient } from "@qdrant/js-client-rest";
import { AppError } from "@/common/errors";
import type { RemoteIndex } from "../types";

export interface QdrantTarget {
  /** The server's REST URL (http://localhost:6333, or a Qdrant Cloud cluster's URL). */
  url: URL;
  apiKey?: string;
  collection: string;
  /** Qdrant's payload filter on searches ({ must: [{ key, match }] }). */
  filter?: Record<string, unknown>;
  /** The distance a collection made here gets (an existing collection keeps its own). */
  distance: "Cosine" | "Euclid" | "Dot";
  /** The payload key holding a point's text (LangChain's and Flowise's "content"). */
  contentKey: string;
  /** The payload key holding a point's metadata (LangChain's and Flowise's "metadata"). */
  metadataKey: string;
  /** Checks the server's host under the operator's outbound rules before the first request. */
  checkHost(url: URL): Promise<void>;
  /** Who asks, for errors. */
  requester: string;
}

/** Points per upsert or delete request (Qdrant's default request cap is 32 MB). */
const BATCH = 100;
const TIMEOUT_MS = 30_000;

/** The status and body of a failed request, whichever of the client's error classes carries them. */
function failureOf(err: unknown): { status?: number; detail: string } {
  const e = err as { status?: number; data?: unknown; getActualType?: () => { status?: number; data?: unknown } };
  const actual = typeof e?.getActualType === "function" ? e.getActualType() : e;
  const status = typeof actual?.status === "number" ? actual.status : undefined;
  const data = actual?.data as { status?: { error?: string } } | string | undefined;
  const detail =
    typeof data === "string" ? data : (data?.status?.error ?? (err instanceof Error ? err.message : String(err)));
  return { status, detail: String(detail).slice(0, 300) };
}

/**
 * A Qdrant collection through its official REST client. Points are our chunk ids (UUIDs) with their
 * vector and a payload laid out as LangChain (and so Flowise) writes it: the text under `contentKey`,
 * the metadata under `metadataKey`, so either reads what the other wrote. The collection's vector size
 * comes from its config; a missing collection is made at the first upsert with the embeddings' size.
 * The client sends its own requests (it takes no fetch), so the host is checked under the operator's
 * outbound rules first; errors are 502 naming the collection, a 401/403 as the key being refused.
 */
export function qdrantCollection(t: QdrantTarget): RemoteIndex {
  const name = `Qdrant collection “${t.collection}” at ${t.url.host}`;
  const prefix = t.url.pathname.replace(/\/+$/, "");
  const fail = (what: string, err: unknown): never => {
    if (err instanceof AppError) throw err;
    const { status, detail } = failureOf(err);
    throw new AppError(
      "upstream_error",
      status === 401 || status === 403
        ? `${t.requester}: Qdrant at ${t.url.host} refused the credential while trying to ${what} (check the API key).`
        : `${t.requester}: ${name} failed to ${what}: ${status ? `${status} ` : ""}${detail}`,
      { cause: err },
    );
  };
  let ready: Promise<QdrantClient> | undefined;
  const client = () => {
    ready ??= t.checkHost(t.url).then(
      () =>
        new QdrantClient({
          url: t.url.origin,
          port: t.url.port ? Number(t.url.port) : t.url.protocol === "https:" ? 443 : 80,
          ...(prefix ? { prefix } : {}),
          ...(t.apiKey ? { apiKey: t.apiKey } : {}),
          https: t.url.protocol === "https:",
          timeout: TIMEOUT_MS,
          checkCompatibility: false,
        }),
      (err) => {
        ready = undefined;
        throw err;
      },
    );
    return ready;
  };
  /** The collection's vector size, or undefined when it does not exist (or has named vectors). */
  const readCollection = async (): Promise<{ exists: boolean; size?: number }> => {
    const c = await client();
    try {
      const info = await c.getCollection(t.collection);
      const vectors = info.config?.params?.vectors as { size?: number } | Record<string, { size?: number }> | undefined;
      const size = vectors && typeof vectors.size === "number" ? vectors.size : undefined;
      return { exists: true, size };
    } catch (err) {
      if (failureOf(err).status === 404) return { exists: false };
      return fail("read the collection", err);
    }
  };
  const payloadOf = (metadata: Record<string, unknown>) => {
    const { [t.contentKey]: text, ...rest } = metadata;
    return { [t.contentKey]: typeof text === "string" ? text : "", [t.metadataKey]: rest };
  };
  return {
    name,
    textKey: t.contentKey,
    async dimension() {
      return (await readCollection()).size;
    },
    async upsert(points) {
      if (points.length === 0) return;
      const c = await client();
      if (!(await readCollection()).exists)
        await c
          .createCollection(t.collection, { vectors: { size: points[0].vector.length, distance: t.distance } })
          .catch((err) => fail("create the collection", err));
      for (let i = 0; i < points.length; i += BATCH) {
        const batch = points
          .slice(i, i + BATCH)
          .map((p) => ({ id: p.id, vector: p.vector, payload: payloadOf(p.metadata) }));
        await c.upsert(t.collection, { wait: true, points: batch }).catch((err) => fail("store vectors", err));
      }
    },
    async setMetadata(points) {
      const c = await client();
      for (const p of points)
        await c
          .overwritePayload(t.collection, { wait: true, points: [p.id], payload: payloadOf(p.metadata) })
          .catch((err) => fail("update metadata", err));
    },
    async delete(ids) {
      if (ids.length === 0) return;
      const c = await client();
      for (let i = 0; i < ids.length; i += BATCH)
        await c
          .delete(t.collection, { wait: true, points: ids.slice(i, i + BATCH) })
          .catch((err) => (failureOf(err).status === 404 ? undefined : fail("delete vectors", err)));
    },
    async query(vector, k) {
      const c = await client();
      let res: Awaited<ReturnType<QdrantClient["query"]>>;
      try {
        res = await c.query(t.collection, {
          query: vector,
          limit: k,
          with_payload: true,
          ...(t.filter ? { filter: t.filter } : {}),
        });
      } catch (err) {
        // A collection nothing was upserted into yet holds nothing to find.
        if (failureOf(err).status === 404) return [];
        return fail("search", err);
      }
      return (res.points ?? []).map((p) => {
        const payload = (p.payload ?? {}) as Record<string, unknown>;
        const meta = payload[t.metadataKey];
        const metadata = {
          ...(meta && typeof meta === "object" && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {}),
          [t.contentKey]: payload[t.contentKey],
        };
        return { id: String(p.id), score: p.score ?? 0, metadata };
      });
    },
  };
}
