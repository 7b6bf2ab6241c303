import { Pinecone } from "@pinecone-database/pinecone";
import { AppError } from "@/common/errors";
import type { RemoteIndex } from "../types";
import { flatMetadata } from "./metadata";

export interface PineconeTarget {
  apiKey: string;
  /** The control plane (https://api.pinecone.io unless the credential names another). */
  controllerUrl: string;
  indexName: string;
  namespace?: string;
  filter?: Record<string, unknown>;
  /** The metadata key holding a record's text. */
  textKey: string;
  /** The guarded fetch every request goes through (the host check is the caller's). */
  fetch: typeof fetch;
  /** Checks the data-plane host the control plane named before any key is sent there. */
  allowHost(url: URL): void;
  /** Who asks, for errors. */
  requester: string;
}

/** Upserts and deletes in batches Pinecone takes (it caps a request at 2 MB and 1,000 ids). */
const BATCH = 100;

/**
 * A Pinecone index through its official client: the index's host and dimension come from the control
 * plane once (describeIndex), then upsert, update, delete and query go to the index host in the
 * node's namespace. Pinecone's own errors are said as 502 naming the index; a 401/403 as the key
 * being refused.
 */
export function pineconeIndex(t: PineconeTarget): RemoteIndex {
  const client = new Pinecone({ apiKey: t.apiKey, controllerHostUrl: t.controllerUrl, fetchApi: t.fetch });
  const name = `Pinecone index “${t.indexName}”${t.namespace ? ` (namespace “${t.namespace}”)` : ""}`;
  let described: Promise<{ host: string; dimension?: number }> | undefined;
  const fail = (what: string, err: unknown): never => {
    if (err instanceof AppError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    const refused = /\b(401|403)\b|unauthori[sz]ed|forbidden|api key/i.test(message);
    const missing = /\b404\b|not ?found/i.test(message);
    throw new AppError(
      "upstream_error",
      refused
        ? `${t.requester}: Pinecone refused the credential while trying to ${what} (check the API key).`
        : missing
          ? `${t.requester}: ${name} was not found while trying to ${what}: create it in Pinecone (or check its name).`
          : `${t.requester}: ${name} failed to ${what}: ${message.slice(0, 300)}`,
      { cause: err },
    );
  };
  const resolveIndex = () => {
    described ??= client.describeIndex(t.indexName).then(
      (d) => {
        const host = /^https?:\/\//.test(d.host) ? d.host : `https://${d.host}`;
        t.allowHost(new URL(host));
        return { host, dimension: d.dimension ?? undefined };
      },
      (err) => {
        described = undefined;
        return fail("find the index", err);
      },
    );
    return described;
  };
  const index = async () => {
    const { host } = await resolveIndex();
    return client.index({ host, namespace: t.namespace ?? "" });
  };
  return {
    name,
    textKey: t.textKey,
    async dimension() {
      return (await resolveIndex()).dimension;
    },
    async upsert(points) {
      const idx = await index();
      for (let i = 0; i < points.length; i += BATCH) {
        const records = points
          .slice(i, i + BATCH)
          .map((p) => ({ id: p.id, values: p.vector, metadata: flatMetadata(p.metadata) }));
        await idx.upsert({ records }).catch((err) => fail("store vectors", err));
      }
    },
    async setMetadata(points) {
      const idx = await index();
      for (const p of points)
        await idx.update({ id: p.id, metadata: flatMetadata(p.metadata) }).catch((err) => fail("update metadata", err));
    },
    async delete(ids) {
      const idx = await index();
      for (let i = 0; i < ids.length; i += BATCH)
        await idx.deleteMany({ ids: ids.slice(i, i + BATCH) }).catch((err) => fail("delete vectors", err));
    },
    async query(vector, k) {
      const idx = await index();
      const res = await idx
        .query({ vector, topK: k, includeMetadata: true, ...(t.filter ? { filter: t.filter } : {}) })
        .catch((err) => fail("search", err));
      return (res.matches ?? []).map((m) => ({
        id: m.id,
        score: m.score ?? 0,
        ...(m.metadata ? { metadata: m.metadata as Record<string, unknown> } : {}),
      }));
    },
  };
}
