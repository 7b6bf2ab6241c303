import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import { type AppRoute, loadApiRoutes, routesOf, serveRoutes } from "../../dev/route-server";
import { rawRequest, type RawResponse } from "../support/raw-http";
import { fuzzRequest, seededRandom, type FuzzFixtures, type FuzzRequest } from "./fuzz/requests";
import { edge, node } from "../../lib/flow/__fixtures__/graphs";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";
import { checkAuthRequest } from "../../lib/http/auth-request";
import { errorResponse } from "../../lib/http/responses";
import { listJobQueues } from "../../lib/jobs";

// Finding 6: 12,000 fuzzed requests, 478 answered 500. This run sends FUZZ_COUNT (default 3,000)
// malformed requests over every route file of app/api, with a fixed seed, and asserts no answer
// is ≥ 500, every error is in the one error shape, and a refused request changes no row.
// `npm run fuzz` runs it with a random seed and a large count; the seed is printed for replay.
const COUNT = Number(process.env.FUZZ_COUNT ?? 3000);
const SEED =
  process.env.FUZZ_SEED === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20261123);
const AUTH_ROUTE = "app/api/auth/[...nextauth]/route.ts";

let stub: ModelStub;
let app: Awaited<ReturnType<typeof serveRoutes>>;
let routes: AppRoute[];
let fixtures: FuzzFixtures;

/** A fingerprint of every table's rows (API keys' lastUsedAt is bookkeeping of reads, left out). */
async function databaseRows(): Promise<string> {
  const db = await getDb();
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
  );
  const parts = tables.map(({ name }) => {
    const row = `(to_jsonb(t) - 'lastUsedAt')::text`;
    return `(SELECT '${name}:' || count(*) || ':' || md5(coalesce(string_agg(${row}, ',' ORDER BY ${row}), '')) FROM "${name}" t)`;
  });
  const [result] = await db.$queryRawUnsafe<{ state: string }[]>(`SELECT concat_ws('|', ${parts.join(", ")}) AS state`);
  return result.state;
}

/** The next transaction id: it moves only when some transaction wrote, so equal means no write at all. */
async function nextTransactionId(): Promise<string> {
  const db = await getDb();
  const [row] = await db.$queryRawUnsafe<{ xid: string }[]>(
    "SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xid",
  );
  return row.xid;
}

/** next-auth needs Next's request context; here it is served up to the check that guards it. */
async function authStandIn(req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) {
  try {
    await checkAuthRequest(req, ((await ctx.params).nextauth as string[] | undefined)?.[0]);
    return new Response(null, { status: 204 });
  } catch (err) {
    return errorResponse(err);
  }
}

async function post(path: string, headers: Record<string, string>, body: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return res.json();
}

beforeAll(async () => {
  stub = await startServerModelStub();
  routes = await loadApiRoutes();
  const realAuth = routes.find((r) => r.file === AUTH_ROUTE)!.module;
  app = await serveRoutes(routesOf(routes, { [AUTH_ROUTE]: { ...realAuth, GET: authStandIn, POST: authStandIn } }), {
    productionServer: true,
  });
  const admin = await setupFirstAdmin({ email: "admin@fuzz.test", name: "Admin", password: "admin-pass-123" });
  const adminSession = await auth.session(admin.id, "admin@fuzz.test");
  const graph = {
    nodes: [node("model", "chatOpenAICompatible", {}), node("conv", "conversationChain", {})],
    edges: [edge("model", "chatModel", "conv", "model")],
  };
  const open = await post("/api/v1/chatflows", adminSession, {
    name: "Public",
    graph,
    isPublic: true,
    allowedOrigins: ["https://shop.example"],
  });
  const closed = await post("/api/v1/chatflows", adminSession, { name: "Private", graph });
  const key = await post("/api/v1/apikey", adminSession, {
    name: "fuzz",
    permissions: ["predict", "upsert", "chatflows", "messages", "domains"],
  });
  const builder = await post("/api/v1/users", adminSession, {
    email: "builder@fuzz.test",
    name: "Builder",
    password: "builder-pass-123",
    role: "builder",
  });
  const credential = await post("/api/v1/credentials", adminSession, {
    name: "Fuzz key",
    type: "openai",
    data: { apiKey: "sk-fuzz" },
  });
  await post("/api/v1/domains", adminSession, { names: ["example.com", "example.org"] });
  fixtures = {
    ids: [open.id, closed.id, key.id, builder.id, credential.id, "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b"],
    nodeIds: ["model", "conv", "store_1"],
    callers: {
      anonymous: {},
      admin: adminSession,
      builder: await auth.session(builder.id, "builder@fuzz.test"),
      apiKey: auth.bearer(key.key),
      basicAdmin: auth.basic("admin@fuzz.test", "admin-pass-123"),
    },
  };
});

afterAll(async () => {
  await app?.close();
  await stub?.close();
});

type Finding = { i: number; req: FuzzRequest; res?: RawResponse; problem: string };

/** What is wrong with an answer, or null: a 5xx, no answer, or an error outside the error shape. */
function problemWith(req: FuzzRequest, res: RawResponse): string | null {
  if (res.status === 0) return "no HTTP answer";
  if (res.status >= 500) return `answered ${res.status}`;
  if (res.status < 400 || req.method === "HEAD" || res.headers["x-app-server"] === "no-route") return null;
  let body: { error?: { code?: unknown; message?: unknown } } | undefined;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `${res.status} without a JSON error body`;
  }
  if (typeof body?.error?.code !== "string" || typeof body.error.message !== "string")
    return `${res.status} not in the error shape`;
  if (res.status === 405 && !res.headers.allow) return "405 without an Allow header";
  return null;
}

describe(`fuzz: ${COUNT} malformed requests over every route (seed ${SEED})`, () => {
  it("covers every route file of app/api with its methods", () => {
    expect(routes.length).toBeGreaterThanOrEqual(26);
    for (const r of routes) expect(r.methods.length, r.file).toBeGreaterThan(0);
  });

  it("its database check sees a write (so 'changes nothing' below can fail)", async () => {
    const [rows, xid] = [await databaseRows(), await nextTransactionId()];
    const db = await getDb();
    await db.$executeRawUnsafe(`UPDATE "Chatflow" SET "name" = "name" || '!' WHERE "id" = '${fixtures.ids[1]}'`);
    expect(await nextTransactionId()).not.toBe(xid);
    expect(await databaseRows()).not.toBe(rows);
    await db.$executeRawUnsafe(`UPDATE "Chatflow" SET "name" = rtrim("name", '!') WHERE "id" = '${fixtures.ids[1]}'`);
    expect(await databaseRows()).toBe(rows);
  });

  it(
    "never answers ≥ 500, always in the error shape, and a refused request changes nothing",
    async () => {
      console.log(
        `[fuzz] seed ${SEED}, ${COUNT} requests (replay: FUZZ_SEED=${SEED} FUZZ_COUNT=${COUNT} npm run fuzz)`,
      );
      const rng = seededRandom(SEED);
      const findings: Finding[] = [];
      const statuses = new Map<number, number>();
      let rows = await databaseRows();
      let xid = await nextTransactionId();
      const started = Date.now();
      let inRequests = 0;
      for (let i = 0; i < COUNT; i++) {
        const req = fuzzRequest(rng, routes, fixtures);
        let res: RawResponse | undefined;
        const t0 = Date.now();
        try {
          res = await rawRequest(app.port, req);
          inRequests += Date.now() - t0;
        } catch (err) {
          findings.push({ i, req, problem: (err as Error).message });
          continue;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        const problem = problemWith(req, res);
        if (problem) findings.push({ i, req, res, problem });
        // An accepted request may go on writing in the background (a test run, a domain analysis):
        // let it finish, so its writes are not charged to the refused request after it.
        if (res.status < 300) await Promise.all(listJobQueues().map((queue) => queue.drained()));
        const xidAfter = await nextTransactionId();
        if (xidAfter === xid) continue;
        // Something wrote: compare the rows themselves (a key's lastUsedAt touch is not a change).
        const rowsAfter = await databaseRows();
        if (rowsAfter !== rows && res.status >= 400)
          findings.push({ i, req, res, problem: `refused with ${res.status} but changed the database` });
        [rows, xid] = [rowsAfter, xidAfter];
      }
      console.log(`[fuzz] ${Date.now() - started} ms, ${inRequests} ms waiting for answers`);
      console.log(
        `[fuzz] statuses: ${[...statuses]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(" ")}`,
      );
      const report = findings
        .slice(0, 15)
        .map(
          (f) =>
            `#${f.i} ${f.problem}: ${f.req.method} ${f.req.target.slice(0, 160)} ${JSON.stringify(f.req.headers).slice(0, 160)} body=${(f.req.body?.toString("utf8") ?? "").slice(0, 120)} → ${f.res?.body.slice(0, 200) ?? ""}`,
        );
      expect(report, `seed ${SEED}: ${findings.length} problems`).toEqual([]);
      // Most requests are refused, and the run also reached the handlers' success paths.
      expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    },
    60_000 + COUNT * 100,
  );
});
