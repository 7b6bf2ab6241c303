import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Elasticsearch for tests: the REST calls a vector store makes (index mapping, create index,
 * the bulk API's index/update/delete, and kNN search), in memory, as Elasticsearch's REST reference
 * describes them: `Authorization: ApiKey …`, the `x-elastic-product` header the official client checks,
 * NDJSON bulk bodies, `{error: {type, reason}, status}` errors. kNN scores follow the index's
 * similarity (cosine: (1 + cos) / 2); a kNN filter covers term (and bool.filter/must of terms).
 */
export interface EsDoc {
  text?: string;
  metadata?: Record<string, unknown>;
  embedding?: number[];
}
export interface EsIndex {
  dims: number;
  similarity: string;
  docs: Map<string, EsDoc>;
}
export interface ElasticsearchStub {
  url: string;
  indices: Map<string, EsIndex>;
  requests: { method: string; path: string; body: string; authorization?: string }[];
  /** Answer the next `times` bulk requests with this status. */
  failNextBulk(status: number, times?: number): void;
  close(): Promise<void>;
}

const valueAt = (doc: EsDoc, key: string): unknown =>
  key
    .split(".")
    .reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), doc);

function holds(doc: EsDoc, q: Record<string, unknown> | Record<string, unknown>[] | undefined): boolean {
  if (!q) return true;
  if (Array.isArray(q)) return q.every((x) => holds(doc, x));
  if (q.term) {
    const [key, cond] = Object.entries(q.term as Record<string, unknown>)[0];
    const want = cond && typeof cond === "object" ? (cond as { value: unknown }).value : cond;
    return valueAt(doc, key.replace(/\.keyword$/, "")) === want;
  }
  if (q.terms) {
    const [key, values] = Object.entries(q.terms as Record<string, unknown[]>)[0];
    return values.includes(valueAt(doc, key.replace(/\.keyword$/, "")));
  }
  if (q.bool) {
    const b = q.bool as Record<string, Record<string, unknown> | Record<string, unknown>[]>;
    const list = (x: unknown) => (x === undefined ? [] : Array.isArray(x) ? x : [x]) as Record<string, unknown>[];
    return (
      [...list(b.filter), ...list(b.must)].every((x) => holds(doc, x)) && !list(b.must_not).some((x) => holds(doc, x))
    );
  }
  if (q.match_all) return true;
  return false;
}

function score(similarity: string, a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let l2 = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
    l2 += (a[i] - b[i]) ** 2;
  }
  if (similarity === "l2_norm") return 1 / (1 + l2);
  if (similarity === "dot_product") return (1 + dot) / 2;
  return (1 + (na && nb ? dot / Math.sqrt(na * nb) : 0)) / 2;
}

export async function createElasticsearchStub(opts: { apiKey: string }): Promise<ElasticsearchStub> {
  const indices: ElasticsearchStub["indices"] = new Map();
  const requests: ElasticsearchStub["requests"] = [];
  let failStatus: number | undefined;
  let failTimes = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const raw = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "content-type": "application/vnd.elasticsearch+json;compatible-with=9",
        "x-elastic-product": "Elasticsearch",
      };
      const send = (status: number, json?: unknown) => {
        res.writeHead(status, headers);
        res.end(json === undefined ? "" : JSON.stringify(json));
      };
      const error = (status: number, type: string, reason: string) =>
        send(status, { error: { root_cause: [{ type, reason }], type, reason }, status });
      requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        body: raw,
        authorization: req.headers.authorization,
      });
      if (req.headers.authorization !== `ApiKey ${opts.apiKey}`)
        return error(
          401,
          "security_exception",
          "unable to authenticate with provided credentials and anonymous access is not allowed for this request",
        );
      const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
      if ((parts[0] === "_bulk" && req.method === "POST") || (parts[0] === "_bulk" && req.method === "PUT")) {
        if (failStatus && failTimes > 0) {
          failTimes -= 1;
          return error(failStatus, "unavailable_shards_exception", "primary shard is not active");
        }
        const lines = raw
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l));
        const items: Record<string, unknown>[] = [];
        let errors = false;
        for (let i = 0; i < lines.length; i++) {
          const [op, meta] = Object.entries(lines[i] as Record<string, { _index: string; _id: string }>)[0];
          const index = indices.get(meta._index);
          const item = (status: number, extra: object = {}) =>
            items.push({ [op]: { _index: meta._index, _id: meta._id, status, ...extra } });
          if (op === "delete") {
            const gone = index?.docs.delete(meta._id);
            if (!gone) errors = true;
            item(gone ? 200 : 404, { result: gone ? "deleted" : "not_found" });
            continue;
          }
          const source = lines[++i] as Record<string, unknown>;
          if (!index) {
            errors = true;
            item(404, { error: { type: "index_not_found_exception", reason: `no such index [${meta._index}]` } });
            continue;
          }
          if (op === "index" || op === "create") {
            const doc = source as EsDoc;
            if (doc.embedding && doc.embedding.length !== index.dims) {
              errors = true;
              item(400, {
                error: {
                  type: "document_parsing_exception",
                  reason: `The [dense_vector] field [embedding] in doc [${meta._id}] has a different number of dimensions [${doc.embedding.length}] than defined in the mapping [${index.dims}]`,
                },
              });
              continue;
            }
            index.docs.set(meta._id, doc);
            item(201, { result: "created" });
          } else if (op === "update") {
            const doc = index.docs.get(meta._id);
            if (!doc) {
              errors = true;
              item(404, { error: { type: "document_missing_exception", reason: `[${meta._id}]: document missing` } });
              continue;
            }
            Object.assign(doc, (source as { doc: EsDoc }).doc);
            item(200, { result: "updated" });
          }
        }
        return send(200, { errors, took: 1, items });
      }
      const name = parts[0];
      const index = name ? indices.get(name) : undefined;
      if (parts.length === 1 && req.method === "PUT") {
        if (index) return error(400, "resource_already_exists_exception", `index [${name}] already exists`);
        const body = JSON.parse(raw || "{}");
        const vector = body.mappings?.properties?.embedding;
        indices.set(name, { dims: vector?.dims ?? 0, similarity: vector?.similarity ?? "cosine", docs: new Map() });
        return send(200, { acknowledged: true, shards_acknowledged: true, index: name });
      }
      if (!index) return error(404, "index_not_found_exception", `no such index [${name}]`);
      if (parts[1] === "_mapping" && req.method === "GET")
        return send(200, {
          [name]: {
            mappings: {
              properties: {
                embedding: { type: "dense_vector", dims: index.dims, index: true, similarity: index.similarity },
                metadata: { properties: {} },
                text: { type: "text" },
              },
            },
          },
        });
      if (parts[1] === "_search" && (req.method === "POST" || req.method === "GET")) {
        const body = JSON.parse(raw || "{}");
        const knn = body.knn as { field: string; query_vector: number[]; k: number; filter?: Record<string, unknown> };
        if (!knn) return error(400, "parsing_exception", "this stub answers kNN searches only");
        if (knn.query_vector.length !== index.dims)
          return error(
            400,
            "illegal_argument_exception",
            `The query vector has a different number of dimensions [${knn.query_vector.length}] than the document vectors [${index.dims}].`,
          );
        const hits = [...index.docs.entries()]
          .filter(([, d]) => d.embedding && holds(d, knn.filter))
          .map(([id, d]) => ({
            _index: name,
            _id: id,
            _score: score(index.similarity, knn.query_vector, d.embedding!),
            _source: { text: d.text, metadata: d.metadata },
          }))
          .sort((a, b) => b._score - a._score)
          .slice(0, Math.min(knn.k, body.size ?? knn.k));
        return send(200, {
          took: 1,
          timed_out: false,
          _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
          hits: { total: { value: hits.length, relation: "eq" }, max_score: hits[0]?._score ?? null, hits },
        });
      }
      return error(400, "illegal_argument_exception", `unknown request ${req.method} ${url.pathname}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    indices,
    requests,
    failNextBulk: (status, times = 1) => {
      failStatus = status;
      failTimes = times;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
