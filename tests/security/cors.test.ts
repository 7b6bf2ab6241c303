import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createChatflow } from "../../lib/services/chatflows";
import { setupFirstAdmin } from "../../lib/services/users";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { auth } from "../support/http";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";
import { apiRoutes, callRoute, fillPath, paramsOf, type ApiRoute } from "./support/routes";

// Flowise answered `Access-Control-Allow-Origin: *` (or echoed any origin) with credentials. Here
// no route lets another site read an authenticated answer, nothing ever allows credentials across
// origins, and a public chatflow's predictions go only to the origins its builder allowed.

const EVIL = "https://evil.example";
const SHOP = "https://shop.example";
/** Credential-free public reads any page may make (the widget's config): `*` without credentials is fine there. */
const ANY_ORIGIN_READS = new Set([
  "GET /api/v1/public-chatbotConfig/[id]",
  "OPTIONS /api/v1/public-chatbotConfig/[id]",
]);

/**
 * What a chat visitor's browser calls on a public chatflow (our widget, flowise-embed, flowise-sdk):
 * predictions, the streaming and uploads checks, feedback and leads. Only the chatflow's allowed
 * origins get CORS there (for /feedback and /leads, whose chatflow is in the body: an origin some
 * public chatflow allows; the service refuses any other chatflow's origin with 403).
 */
const PREDICTION = new Set(
  [
    "POST prediction/[id]",
    "GET chatflows-streaming/[id]",
    "GET chatflows-uploads/[id]",
    "POST feedback",
    "POST feedback/[id]",
    "PUT feedback/[id]",
    "POST leads",
  ].flatMap((r) => {
    const [method, path] = r.split(" ");
    return [`${method} /api/v1/${path}`, `OPTIONS /api/v1/${path}`];
  }),
);

let stub: ModelStub;
let routes: ApiRoute[];
let ids: Record<string, string>;
let publicFlowId: string;
let callers: Record<string, Record<string, string>>;

beforeAll(async () => {
  stub = await startServerModelStub();
  const admin = await setupFirstAdmin({ email: "admin@cors.test", password: "admin-password-1", name: "Admin" });
  const flow = exampleFlow("conversation.json");
  const publicFlow = async () =>
    (
      await createChatflow(
        { name: "public", graph: flow.graph as never, isPublic: true, allowedOrigins: [SHOP] },
        systemCaller,
      )
    ).id;
  // The walk over every route deletes its chatflow (DELETE /chatflows/{id}): it gets its own.
  ids = { id: await publicFlow(), nodeId: "memory" };
  publicFlowId = await publicFlow();
  const key = await fixtureKey("all", ["chatflows", "predict", "upsert", "messages", "domains"]);
  callers = {
    session: await auth.session(admin.id, "admin@cors.test"),
    apiKey: auth.bearer(key),
    basic: auth.basic("admin@cors.test", "admin-password-1"),
    anonymous: {},
  };
  routes = await apiRoutes();
});
afterAll(() => stub.close());

describe("permissive CORS", () => {
  it("never allows credentials, nor `*` or a reflected origin, on any route for any caller", async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const route = `${r.method} ${r.template}`;
      for (const [kind, headers] of Object.entries(callers)) {
        for (const origin of [EVIL, SHOP]) {
          const res = await callRoute(
            r,
            `http://127.0.0.1:3000${fillPath(r.template, ids)}`,
            paramsOf(r.template, ids),
            {
              ...headers,
              origin,
              "access-control-request-method": "POST",
            },
          );
          const acao = res.headers.get("access-control-allow-origin");
          const label = `${route} as ${kind} from ${origin} → ${res.status}`;
          if (res.headers.get("access-control-allow-credentials")) wrong.push(`${label}: allows credentials`);
          if (acao === EVIL) wrong.push(`${label}: reflects ${EVIL}`);
          // The flow's own allowed origin may chat with it (predict, rate, leave a lead), and nothing else.
          if (acao === SHOP && !PREDICTION.has(route)) wrong.push(`${label}: allows ${SHOP} off the prediction route`);
          if (acao === "*" && !ANY_ORIGIN_READS.has(route)) wrong.push(`${label}: allows any origin`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("gives a public chatflow's predictions CORS headers for its allowed origin only", async () => {
    const ask = (origin: string) =>
      prediction.POST(
        new Request(`http://127.0.0.1:3000/api/v1/prediction/${publicFlowId}`, {
          method: "POST",
          headers: { origin, "content-type": "application/json" },
          body: JSON.stringify({ question: "Hello" }),
        }),
        { params: Promise.resolve({ id: publicFlowId }) },
      );
    const allowed = await ask(SHOP);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(SHOP);
    const refused = await ask(EVIL);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();

    const preflight = (origin: string) =>
      prediction.OPTIONS(
        new Request(`http://127.0.0.1:3000/api/v1/prediction/${publicFlowId}`, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "POST" },
        }),
        { params: Promise.resolve({ id: publicFlowId }) },
      );
    expect((await preflight(SHOP)).headers.get("access-control-allow-origin")).toBe(SHOP);
    expect((await preflight(EVIL)).headers.get("access-control-allow-origin")).toBeNull();
  });
});
