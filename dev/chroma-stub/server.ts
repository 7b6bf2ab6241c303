import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Chroma for tests: the v2 HTTP API calls a store makes (pre-flight checks, get-or-create a
 * collection, upsert, update, delete, get and query records), in memory, as Chroma's API reference
 * describes them: paths under /api/v2/tenants/{tenant}/databases/{database}, the `x-chroma-token`
 * (or `Authorization: Bearer`) header, `{error, message}` errors. Distances follow the collection's
 * space (cosine: 1 − cosine similarity; l2: squared euclidean); the where filter covers plain
 * equality, $eq, $ne, $in, $nin, $and and $or.
 */
export interface ChromaRecord {
  embedding: number[];
  document: string | null;
  metadata: Record<string, unknown> | null;
}

export interface ChromaStubCollection {
  id: string;
  name: string;
  tenant: string;
  database: string;
  space: string;
  dimension: number | null;
  records: Map<string, ChromaRecord>;
}

export interface ChromaStub {
  url: string;
  collections: Map<string, ChromaStubCollection>;
  requests: { method: string; path: string; body: unknown; token?: string }[];
  /** Answer the next `times` record requests of these kinds (default: all of upsert, update, delete, get, query) with this status. */
  failNext(status: number, times?: number, kinds?: string[]): void;
  /** A collection as another tool would have made it (records added with `add`). */
  seed(
    name: string,
    records: { id: string; embedding: number[]; document: string; metadata: Record<string, unknown> }[],
  ): void;
  byName(name: string): ChromaStubCollection | undefined;
  close(): Promise<void>;
}

const DEFAULT_TENANT = "default_tenant";
const DEFAULT_DATABASE = "default_database";

function distance(space: string, a: number[], b: number[]): number {
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
  if (space === "l2") return l2;
  if (space === "ip") return 1 - dot;
  return 1 - (na && nb ? dot / Math.sqrt(na * nb) : 0);
}

type Where = Record<string, unknown>;
function whereHolds(metadata: Record<string, unknown> | null, where: Where | undefined): boolean {
  if (!where || Object.keys(where).length === 0) return true;
  const m = metadata ?? {};
  return Object.entries(where).every(([key, cond]) => {
    if (key === "$and") return (cond as Where[]).every((w) => whereHolds(metadata, w));
    if (key === "$or") return (cond as Where[]).some((w) => whereHolds(metadata, w));
    const v = m[key];
    if (cond && typeof cond === "object" && !Array.isArray(cond)) {
      const c = cond as Record<string, unknown>;
      if ("$eq" in c) return v === c.$eq;
      if ("$ne" in c) return v !== c.$ne;
      if ("$in" in c) return Array.isArray(c.$in) && c.$in.includes(v);
      if ("$nin" in c) return Array.isArray(c.$nin) && !c.$nin.includes(v);
      return false;
    }
    return v === cond;
  });
}

export async function createChromaStub(
  opts: { token?: string; tenants?: Record<string, string[]> } = {},
): Promise<ChromaStub> {
  const tenants = opts.tenants ?? { [DEFAULT_TENANT]: [DEFAULT_DATABASE] };
  const collections: ChromaStub["collections"] = new Map();
  const requests: ChromaStub["requests"] = [];
  let failStatus: number | undefined;
  let failTimes = 0;
  let failKinds: string[] | undefined;
  const byName = (name: string, tenant = DEFAULT_TENANT, database = DEFAULT_DATABASE) =>
    [...collections.values()].find((c) => c.name === name && c.tenant === tenant && c.database === database);
  const make = (name: string, tenant: string, database: string, space: string) => {
    const c: ChromaStubCollection = {
      id: randomUUID(),
      name,
      tenant,
      database,
      space,
      dimension: null,
      records: new Map(),
    };
    collections.set(c.id, c);
    return c;
  };
  const model = (c: ChromaStubCollection) => ({
    id: c.id,
    name: c.name,
    tenant: c.tenant,
    database: c.database,
    dimension: c.dimension,
    metadata: null,
    configuration_json: {
      hnsw: { space: c.space, ef_construction: 100, ef_search: 100, max_neighbors: 16 },
      spann: null,
      embedding_function: null,
    },
    log_position: 0,
    version: 0,
  });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const raw = Buffer.concat(chunks).toString("utf8");
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      const error = (status: number, name: string, message: string) => send(status, { error: name, message });
      let body: Record<string, unknown> = {};
      try {
        body = raw ? JSON.parse(raw) : {};
      } catch {
        return error(400, "InvalidArgumentError", "Failed to parse the request body");
      }
      const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ""))?.[1];
      const token = typeof req.headers["x-chroma-token"] === "string" ? req.headers["x-chroma-token"] : bearer;
      requests.push({ method: req.method ?? "GET", path: url.pathname, body, token });
      if (url.pathname === "/api/v2/heartbeat") return send(200, { "nanosecond heartbeat": Date.now() * 1e6 });
      if (opts.token !== undefined && token !== opts.token) return error(401, "AuthError", "Unauthorized");
      if (url.pathname === "/api/v2/pre-flight-checks")
        return send(200, { max_batch_size: 1000, supports_base64_encoding: false });
      const m =
        /^\/api\/v2\/tenants\/([^/]+)\/databases\/([^/]+)\/collections(?:\/([^/]+)(?:\/(upsert|update|delete|get|query|add))?)?$/.exec(
          url.pathname,
        );
      if (!m) return error(404, "NotFoundError", `Unknown path ${url.pathname}`);
      const tenant = decodeURIComponent(m[1]);
      const database = decodeURIComponent(m[2]);
      if (!tenants[tenant]?.includes(database))
        return error(404, "NotFoundError", `Database ${database} not found for tenant ${tenant}`);
      if (!m[3]) {
        if (req.method !== "POST") return error(405, "InvalidArgumentError", "Method not allowed");
        const name = String(body.name ?? "");
        if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{1,510}[A-Za-z0-9]$/.test(name))
          return error(
            400,
            "InvalidArgumentError",
            `Validation error: name: Expected a name containing 3-512 characters`,
          );
        const existing = byName(name, tenant, database);
        if (existing) {
          if (!body.get_or_create) return error(409, "UniqueConstraintError", `Collection ${name} already exists`);
          return send(200, model(existing));
        }
        const config = body.configuration as { hnsw?: { space?: string } } | undefined;
        return send(200, model(make(name, tenant, database, config?.hnsw?.space ?? "l2")));
      }
      if (failStatus && failTimes > 0 && (!failKinds || failKinds.includes(m[4] ?? ""))) {
        failTimes -= 1;
        return error(failStatus, "InternalError", "Internal error: the segment is unavailable");
      }
      const c = collections.get(decodeURIComponent(m[3]));
      if (!c || c.tenant !== tenant || c.database !== database)
        return error(404, "NotFoundError", `Collection [${m[3]}] does not exist`);
      const ids = (body.ids ?? []) as string[];
      /** Answers the dimension error and says so when a vector does not fit the collection. */
      const wrongDimension = (vectors: number[][]): boolean => {
        for (const v of vectors) {
          if (c.dimension === null) c.dimension = v.length;
          if (v.length !== c.dimension) {
            error(
              400,
              "InvalidArgumentError",
              `Collection expecting embedding with dimension of ${c.dimension}, got ${v.length}`,
            );
            return true;
          }
        }
        return false;
      };
      switch (m[4]) {
        case "add":
        case "upsert": {
          const embeddings = (body.embeddings ?? []) as number[][];
          if (embeddings.length !== ids.length)
            return error(400, "InvalidArgumentError", "Embeddings are required for every id");
          if (wrongDimension(embeddings)) return;
          ids.forEach((id, i) => {
            c.records.set(id, {
              embedding: embeddings[i],
              document: ((body.documents as (string | null)[] | undefined)?.[i] ?? null) as string | null,
              metadata: (body.metadatas as (Record<string, unknown> | null)[] | undefined)?.[i] ?? null,
            });
          });
          return send(200, {});
        }
        case "update": {
          ids.forEach((id, i) => {
            const r = c.records.get(id);
            if (!r) return;
            const documents = body.documents as (string | null)[] | undefined;
            const metadatas = body.metadatas as (Record<string, unknown> | null)[] | undefined;
            if (documents) r.document = documents[i];
            if (metadatas) r.metadata = metadatas[i];
          });
          return send(200, {});
        }
        case "delete": {
          let deleted = 0;
          for (const id of ids) if (c.records.delete(id)) deleted += 1;
          return send(200, { deleted });
        }
        case "get": {
          const include = (body.include ?? ["documents", "metadatas"]) as string[];
          const rows = [...c.records.entries()]
            .filter(
              ([id, r]) =>
                (ids.length ? ids.includes(id) : true) && whereHolds(r.metadata, body.where as Where | undefined),
            )
            .slice(
              Number(body.offset ?? 0),
              body.limit === undefined || body.limit === null
                ? undefined
                : Number(body.offset ?? 0) + Number(body.limit),
            );
          return send(200, {
            ids: rows.map(([id]) => id),
            embeddings: include.includes("embeddings") ? rows.map(([, r]) => r.embedding) : null,
            documents: include.includes("documents") ? rows.map(([, r]) => r.document) : null,
            metadatas: include.includes("metadatas") ? rows.map(([, r]) => r.metadata) : null,
            uris: null,
            include,
          });
        }
        case "query": {
          const include = (body.include ?? ["documents", "metadatas", "distances"]) as string[];
          const queries = (body.query_embeddings ?? []) as number[][];
          for (const q of queries)
            if (c.dimension !== null && q.length !== c.dimension)
              return error(
                400,
                "InvalidArgumentError",
                `Collection expecting embedding with dimension of ${c.dimension}, got ${q.length}`,
              );
          const results = queries.map((q) =>
            [...c.records.entries()]
              .filter(([, r]) => whereHolds(r.metadata, body.where as Where | undefined))
              .map(([id, r]) => ({ id, r, d: distance(c.space, q, r.embedding) }))
              .sort((a, b) => a.d - b.d)
              .slice(0, Number(body.n_results ?? 10)),
          );
          return send(200, {
            ids: results.map((rs) => rs.map((x) => x.id)),
            distances: include.includes("distances") ? results.map((rs) => rs.map((x) => x.d)) : null,
            documents: include.includes("documents") ? results.map((rs) => rs.map((x) => x.r.document)) : null,
            metadatas: include.includes("metadatas") ? results.map((rs) => rs.map((x) => x.r.metadata)) : null,
            embeddings: null,
            uris: null,
            include,
          });
        }
        default:
          if (req.method === "GET") return send(200, model(c));
          return error(404, "NotFoundError", `Unknown path ${url.pathname}`);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    collections,
    requests,
    failNext: (status, times = 1, kinds) => {
      failStatus = status;
      failTimes = times;
      failKinds = kinds;
    },
    seed(name, records) {
      const c = byName(name) ?? make(name, DEFAULT_TENANT, DEFAULT_DATABASE, "l2");
      for (const r of records) {
        c.dimension ??= r.embedding.length;
        c.records.set(r.id, { embedding: r.embedding, document: r.document, metadata: r.metadata });
      }
    },
    byName: (name) => byName(name),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
