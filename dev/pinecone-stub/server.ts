import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Pinecone for tests: the control plane's describe-index and the data plane's upsert, query,
 * update, delete and stats, in memory, as Pinecone's REST reference describes them (paths, the
 * Api-Key header, bodies, error shape). One server plays both planes: the index host it names is
 * itself. Vectors are compared by cosine similarity, like a `cosine` index.
 */
export interface PineconeStub {
  url: string;
  /** index → namespace → id → record */
  data: Map<string, Map<string, { values: number[]; metadata: Record<string, unknown> }>>;
  requests: { method: string; path: string; body: unknown }[];
  /** Answer the next `times` data-plane requests with this status (a failing index; the client retries 5xx). */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
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

/** Pinecone's metadata filter for the operators tests use ($eq, $in, and plain equality). */
function matches(metadata: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([key, cond]) => {
    const v = metadata[key];
    if (cond && typeof cond === "object" && !Array.isArray(cond)) {
      const c = cond as Record<string, unknown>;
      if ("$eq" in c) return v === c.$eq;
      if ("$in" in c) return Array.isArray(c.$in) && c.$in.includes(v);
      return false;
    }
    return v === cond;
  });
}

export async function createPineconeStub(opts: {
  apiKey: string;
  indexes: Record<string, number>;
}): Promise<PineconeStub> {
  const data: PineconeStub["data"] = new Map();
  const requests: PineconeStub["requests"] = [];
  let failStatus: number | undefined;
  let failTimes = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      const raw = Buffer.concat(chunks).toString("utf8");
      const body = raw ? JSON.parse(raw) : {};
      requests.push({ method: req.method ?? "GET", path: url.pathname, body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      const error = (status: number, code: string, message: string) =>
        send(status, { error: { code, message }, status });
      if (req.headers["api-key"] !== opts.apiKey) return error(401, "UNAUTHENTICATED", "Invalid API Key");
      if (url.pathname === "/indexes" && req.method === "GET")
        return send(200, {
          indexes: Object.entries(opts.indexes).map(([name, dimension]) => ({ name, dimension, metric: "cosine" })),
        });
      const describe = /^\/indexes\/([^/]+)$/.exec(url.pathname);
      if (describe && req.method === "GET") {
        const name = decodeURIComponent(describe[1]);
        if (!(name in opts.indexes)) return error(404, "NOT_FOUND", `Resource ${name} not found`);
        const { port } = server.address() as AddressInfo;
        return send(200, {
          name,
          dimension: opts.indexes[name],
          metric: "cosine",
          host: `http://127.0.0.1:${port}`,
          vector_type: "dense",
          spec: { serverless: { cloud: "aws", region: "us-east-1" } },
          status: { ready: true, state: "Ready" },
          deletion_protection: "disabled",
        });
      }
      if (failStatus && failTimes > 0) {
        failTimes -= 1;
        return error(failStatus, "INTERNAL", "Index unavailable");
      }
      // One index per stub's data plane: the first configured.
      const indexName = Object.keys(opts.indexes)[0];
      if (!data.has(indexName)) data.set(indexName, new Map());
      const dims = opts.indexes[indexName];
      const ns = (n: unknown) => {
        const key = `${indexName}/${typeof n === "string" ? n : ""}`;
        if (!data.has(key)) data.set(key, new Map());
        return data.get(key)!;
      };
      if (url.pathname === "/vectors/upsert") {
        const space = ns(body.namespace);
        for (const v of body.vectors ?? []) {
          if (v.values.length !== dims)
            return error(
              400,
              "INVALID_ARGUMENT",
              `Vector dimension ${v.values.length} does not match the dimension of the index ${dims}`,
            );
          space.set(v.id, { values: v.values, metadata: v.metadata ?? {} });
        }
        return send(200, { upsertedCount: (body.vectors ?? []).length });
      }
      if (url.pathname === "/vectors/update") {
        const rec = ns(body.namespace).get(body.id);
        if (rec) rec.metadata = { ...rec.metadata, ...(body.setMetadata ?? {}) };
        return send(200, {});
      }
      if (url.pathname === "/vectors/delete") {
        const space = ns(body.namespace);
        if (body.deleteAll) space.clear();
        for (const id of body.ids ?? []) space.delete(id);
        return send(200, {});
      }
      if (url.pathname === "/query") {
        const space = ns(body.namespace);
        const matchesOut = [...space.entries()]
          .filter(([, r]) => matches(r.metadata, body.filter))
          .map(([id, r]) => ({
            id,
            score: cosine(body.vector, r.values),
            ...(body.includeMetadata ? { metadata: r.metadata } : {}),
          }))
          .sort((a, b) => b.score - a.score)
          .slice(0, body.topK);
        return send(200, { matches: matchesOut, namespace: body.namespace ?? "", usage: { readUnits: 1 } });
      }
      if (url.pathname === "/describe_index_stats") {
        return send(200, { dimension: dims, namespaces: {}, totalVectorCount: 0, indexFullness: 0 });
      }
      return error(404, "NOT_FOUND", `Unknown path ${url.pathname}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    data,
    requests,
    failNext: (status, times = 1) => {
      failStatus = status;
      failTimes = times;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
