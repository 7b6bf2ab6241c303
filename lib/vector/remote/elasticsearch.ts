import { Client, errors } from "@elastic/elasticsearch";
import { AppError } from "@/common/errors";
import type { RemoteIndex } from "../types";
import { flatMetadata } from "./metadata";

export interface ElasticsearchTarget {
  /** The cluster's URL (https://my-deployment.es.us-east-1.aws.elastic.cloud, http://localhost:9200). */
  url: URL;
  /** An Elasticsearch API key (sent as `Authorization: ApiKey …`). */
  apiKey?: string;
  index: string;
  /** An Elasticsearch query applied as the kNN search's filter ({"term": {"metadata.source": "a"}}). */
  filter?: Record<string, unknown>;
  /** The similarity an index made here gets (an existing index keeps its own). */
  similarity: "cosine" | "dot_product" | "l2_norm";
  /** Checks the cluster's host under the operator's outbound rules before the first request. */
  checkHost(url: URL): Promise<void>;
  requester: string;
}

/** Documents per bulk request. */
const BATCH = 100;
/** LangChain's (and Flowise's) document fields: the text, the metadata object, the vector. */
const TEXT = "text";
const VECTOR = "embedding";

/**
 * An Elasticsearch index through its official client: documents by our chunk ids laid out as
 * LangChain writes them ({text, metadata, embedding}, a dense_vector), written with the bulk API and
 * searched with kNN. The vector size comes from the index's mapping; a missing index is made at the
 * first upsert with the embeddings' size. The client sends its own requests, so the host is checked
 * under the operator's outbound rules first; errors are 502 naming the index, a 401/403 as the key
 * being refused.
 */
export function elasticsearchIndex(t: ElasticsearchTarget): RemoteIndex {
  const name = `Elasticsearch index “${t.index}” at ${t.url.host}`;
  const fail = (what: string, err: unknown): never => {
    if (err instanceof AppError) throw err;
    const status = err instanceof errors.ResponseError ? err.statusCode : undefined;
    const reason =
      err instanceof errors.ResponseError
        ? ((err.body as { error?: { reason?: string } } | undefined)?.error?.reason ?? err.message)
        : err instanceof Error
          ? err.message
          : String(err);
    throw new AppError(
      "upstream_error",
      status === 401 || status === 403
        ? `${t.requester}: Elasticsearch at ${t.url.host} refused the credential while trying to ${what} (check the API key).`
        : `${t.requester}: ${name} failed to ${what}: ${status ? `${status} ` : ""}${String(reason).slice(0, 300)}`,
      { cause: err },
    );
  };
  let ready: Promise<Client> | undefined;
  const client = () => {
    ready ??= t.checkHost(t.url).then(
      () =>
        new Client({
          node: t.url.origin,
          ...(t.apiKey ? { auth: { apiKey: t.apiKey } } : {}),
          requestTimeout: 30_000,
          maxRetries: 1,
        }),
      (err) => {
        ready = undefined;
        throw err;
      },
    );
    return ready;
  };
  const dims = async (c: Client): Promise<{ exists: boolean; dims?: number }> => {
    try {
      const res = await c.indices.getMapping({ index: t.index });
      const props = Object.values(res)[0]?.mappings?.properties as Record<string, { dims?: number }> | undefined;
      return { exists: true, dims: props?.[VECTOR]?.dims };
    } catch (err) {
      if (err instanceof errors.ResponseError && err.statusCode === 404) return { exists: false };
      return fail("read the index mapping", err);
    }
  };
  const bulk = async (c: Client, what: string, operations: object[]) => {
    const res = await c.bulk({ operations, refresh: "wait_for" }).catch((err) => fail(what, err));
    if (res.errors) {
      const first = res.items.find((i) => Object.values(i)[0]?.error);
      const error = first && Object.values(first)[0]?.error;
      // Deleting what is already gone is not a failure.
      if (error || !res.items.every((i) => i.delete?.status === 404))
        throw new AppError(
          "upstream_error",
          `${t.requester}: ${name} failed to ${what}: ${error?.reason ?? "a document was refused"}`.slice(0, 500),
        );
    }
  };
  const doc = (metadata: Record<string, unknown>) => {
    const { [TEXT]: text, ...rest } = metadata;
    return { [TEXT]: typeof text === "string" ? text : "", metadata: flatMetadata(rest) };
  };
  return {
    name,
    textKey: TEXT,
    async dimension() {
      return (await dims(await client())).dims;
    },
    async upsert(points) {
      if (points.length === 0) return;
      const c = await client();
      if (!(await dims(c)).exists)
        await c.indices
          .create({
            index: t.index,
            mappings: {
              properties: {
                [TEXT]: { type: "text" },
                metadata: { type: "object" },
                [VECTOR]: {
                  type: "dense_vector",
                  dims: points[0].vector.length,
                  index: true,
                  similarity: t.similarity,
                },
              },
            },
          })
          .catch((err) => fail("create the index", err));
      for (let i = 0; i < points.length; i += BATCH)
        await bulk(
          c,
          "store vectors",
          points
            .slice(i, i + BATCH)
            .flatMap((p) => [{ index: { _index: t.index, _id: p.id } }, { ...doc(p.metadata), [VECTOR]: p.vector }]),
        );
    },
    async setMetadata(points) {
      const c = await client();
      for (let i = 0; i < points.length; i += BATCH)
        await bulk(
          c,
          "update metadata",
          points
            .slice(i, i + BATCH)
            .flatMap((p) => [{ update: { _index: t.index, _id: p.id } }, { doc: doc(p.metadata) }]),
        );
    },
    async delete(ids) {
      if (ids.length === 0) return;
      const c = await client();
      for (let i = 0; i < ids.length; i += BATCH)
        await bulk(
          c,
          "delete vectors",
          ids.slice(i, i + BATCH).map((id) => ({ delete: { _index: t.index, _id: id } })),
        );
    },
    async query(vector, k) {
      const c = await client();
      let res: Awaited<ReturnType<Client["search"]>>;
      try {
        res = await c.search({
          index: t.index,
          knn: {
            field: VECTOR,
            query_vector: vector,
            k,
            num_candidates: Math.max(100, k * 10),
            ...(t.filter ? { filter: t.filter } : {}),
          },
          _source: [TEXT, "metadata"],
          size: k,
        });
      } catch (err) {
        // An index nothing was upserted into yet holds nothing to find.
        if (err instanceof errors.ResponseError && err.statusCode === 404) return [];
        return fail("search", err);
      }
      return res.hits.hits.map((h) => {
        const source = (h._source ?? {}) as { text?: unknown; metadata?: Record<string, unknown> };
        return {
          id: String(h._id),
          score: h._score ?? 0,
          metadata: { ...(source.metadata ?? {}), [TEXT]: source.text },
        };
      });
    },
  };
}
