import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Qdrant for tests: the REST calls a store makes (collection info and create, points upsert,
 * payload overwrite, delete by ids, and the universal query), in memory, as Qdrant's API reference
 * describes them: paths, the `api-key` header, `{result, status, time}` bodies and
 * `{status: {error}}` errors. Vectors are compared by cosine similarity; the payload filter covers
 * must / should / must_not with `match.value` and `match.any` on dotted keys.
 */
export interface QdrantStub {
  url: string;
  /** collection → { size, distance, points: id → point } */
  collections: Map<string, { size: number; distance: string; points: Map<string, QdrantPoint> }>;
  requests: { method: string; path: string; body: unknown; apiKey?: string }[];
  /** Answer the next `times` point requests (upsert, payload, delete, query) with this status. */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

export interface QdrantPoint {
  vector: number[];
  payload: Record<string, unknown>;
}

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
};

const valueAt = (payload: Record<string, unknown>, key: string): unknown =>
  key
    .split(".")
    .reduce<unknown>(
      (v, part) => (v && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined),
      payload,
    );

type Condition = { key?: string; match?: { value?: unknown; any?: unknown[] } } & Filter;
type Filter = { must?: Condition[]; should?: Condition[]; must_not?: Condition[] };

function conditionHolds(payload: Record<string, unknown>, c: Condition): boolean {
  if (c.must || c.should || c.must_not) return filterHolds(payload, c);
  if (!c.key || !c.match) return false;
  const v = valueAt(payload, c.key);
  const values = Array.isArray(v) ? v : [v];
  if ("value" in c.match) return values.includes(c.match.value);
  if (Array.isArray(c.match.any)) return values.some((x) => c.match!.any!.includes(x));
  return false;
}

function filterHolds(payload: Record<string, unknown>, f: Filter | undefined): boolean {
  if (!f) return true;
  if (f.must && !f.must.every((c) => conditionHolds(payload, c))) return false;
  if (f.should?.length && !f.should.some((c) => conditionHolds(payload, c))) return false;
  if (f.must_not?.some((c) => conditionHolds(payload, c))) return false;
  return true;
}

export async function createQdrantStub(opts: {
  /** Absent: the server takes requests without a key, like a local Qdrant without api_key. */
  apiKey?: string;
  /** Collections that exist from the start, with their vector size. */
  collections?: Record<string, number>;
}): Promise<QdrantStub> {
  const collections: QdrantStub["collections"] = new Map(
    Object.entries(opts.collections ?? {}).map(([name, size]) => [
      name,
      { size, distance: "Cosine", points: new Map() },
    ]),
  );
  const requests: QdrantStub["requests"] = [];
  let failStatus: number | undefined;
  let failTimes = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const started = process.hrtime.bigint();
      const url = new URL(req.url ?? "/", "http://x");
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: Record<string, unknown> = {};
      const time = () => Number(process.hrtime.bigint() - started) / 1e9;
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      const ok = (result: unknown) => send(200, { result, status: "ok", time: time() });
      const error = (status: number, message: string) => send(status, { status: { error: message }, time: time() });
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        return error(400, "Format error in JSON body");
      }
      const apiKey = typeof req.headers["api-key"] === "string" ? req.headers["api-key"] : undefined;
      requests.push({ method: req.method ?? "GET", path: url.pathname, body, apiKey });
      if (opts.apiKey !== undefined && apiKey !== opts.apiKey) {
        res.writeHead(401, { "content-type": "text/plain" });
        return res.end(apiKey ? "Invalid api-key" : "Must provide an API key or an Authorization bearer token");
      }
      if (url.pathname === "/" && req.method === "GET")
        return send(200, { title: "qdrant - vector search engine", version: "1.15.0" });
      const m = /^\/collections\/([^/]+)(\/points(?:\/(delete|payload|query))?)?$/.exec(url.pathname);
      if (!m) return error(404, `Unknown path ${url.pathname}`);
      const name = decodeURIComponent(m[1]);
      const col = collections.get(name);
      if (!m[2]) {
        if (req.method === "GET") {
          if (!col) return error(404, `Not found: Collection \`${name}\` doesn't exist!`);
          return ok({
            status: "green",
            optimizer_status: "ok",
            indexed_vectors_count: 0,
            points_count: col.points.size,
            segments_count: 1,
            config: {
              params: {
                vectors: { size: col.size, distance: col.distance },
                shard_number: 1,
                replication_factor: 1,
                write_consistency_factor: 1,
                on_disk_payload: true,
              },
              hnsw_config: {
                m: 16,
                ef_construct: 100,
                full_scan_threshold: 10000,
                max_indexing_threads: 0,
                on_disk: false,
              },
              optimizer_config: {
                deleted_threshold: 0.2,
                vacuum_min_vector_number: 1000,
                default_segment_number: 0,
                flush_interval_sec: 5,
              },
              wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
            },
            payload_schema: {},
          });
        }
        if (req.method === "PUT") {
          if (col) return error(409, `Wrong input: Collection \`${name}\` already exists!`);
          const vectors = body.vectors as { size?: number; distance?: string } | undefined;
          if (!vectors || typeof vectors.size !== "number")
            return error(400, "Format error in JSON body: missing field `size`");
          collections.set(name, { size: vectors.size, distance: vectors.distance ?? "Cosine", points: new Map() });
          return ok(true);
        }
        return error(405, "Method not allowed");
      }
      if (failStatus && failTimes > 0) {
        failTimes -= 1;
        return error(failStatus, "Service internal error: the shard is unavailable");
      }
      if (!col) return error(404, `Not found: Collection \`${name}\` doesn't exist!`);
      const done = () =>
        ok({
          operation_id: requests.length,
          status: url.searchParams.get("wait") === "true" ? "completed" : "acknowledged",
        });
      const sub = m[3];
      if (!sub && req.method === "PUT") {
        const points = (body.points ?? []) as { id: string; vector: number[]; payload?: Record<string, unknown> }[];
        for (const p of points)
          if (!Array.isArray(p.vector) || p.vector.length !== col.size)
            return error(
              400,
              `Wrong input: Vector dimension error: expected dim: ${col.size}, got ${p.vector?.length ?? 0}`,
            );
        for (const p of points) col.points.set(String(p.id), { vector: p.vector, payload: p.payload ?? {} });
        return done();
      }
      if (sub === "payload" && req.method === "PUT") {
        for (const id of (body.points ?? []) as string[]) {
          const p = col.points.get(String(id));
          if (p) p.payload = (body.payload ?? {}) as Record<string, unknown>;
        }
        return done();
      }
      if (sub === "delete" && req.method === "POST") {
        for (const id of (body.points ?? []) as string[]) col.points.delete(String(id));
        return done();
      }
      if (sub === "query" && req.method === "POST") {
        const query = body.query as number[];
        if (!Array.isArray(query) || query.length !== col.size)
          return error(
            400,
            `Wrong input: Vector dimension error: expected dim: ${col.size}, got ${Array.isArray(query) ? query.length : 0}`,
          );
        const points = [...col.points.entries()]
          .filter(([, p]) => filterHolds(p.payload, body.filter as Filter | undefined))
          .map(([id, p]) => ({
            id,
            version: 0,
            score: cosine(query, p.vector),
            ...(body.with_payload ? { payload: p.payload } : {}),
          }))
          .sort((a, b) => b.score - a.score)
          .slice(0, typeof body.limit === "number" ? body.limit : 10);
        return ok({ points });
      }
      return error(404, `Unknown path ${url.pathname}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    collections,
    requests,
    failNext: (status, times = 1) => {
      failStatus = status;
      failTimes = times;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
