import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as validateRoute from "../../app/api/v1/chatflows/[id]/validate/route";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { fixtureKey, fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { createVariable } from "../../lib/services/variables";
import { updateChatflow } from "../../lib/services/chatflows";

/**
 * Agentflow nodes through the prediction route: the HTTP node behind the outbound guard (a private
 * address is 403), global variables ({{$vars.name}} at run time, unknown names at save time), and
 * Execute Flow (another flow's answer; a flow calling itself stops at the depth limit, 422).
 */

let api: ProductApi;
let key: string;
let adminKey: string;

beforeAll(async () => {
  api = await createProductApi();
  key = (await createApiKey({ name: "nodes", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
  adminKey = await fixtureKey("chatflows", ["chatflows"]);
});
afterAll(() => api.close());

const node = (id: string, type: string, inputs: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs },
});
const edge = (source: string, target: string) => ({
  id: `${source}-${target}`,
  source,
  sourceHandle: `${source}:out:output`,
  target,
  targetHandle: `${target}:in:input`,
});
const straight = (...nodes: ReturnType<typeof node>[]) => ({
  nodes: [node("start", "startAgentflow"), ...nodes],
  edges: ["start", ...nodes.map((n) => n.id)].slice(1).map((id, i, ids) => edge(i === 0 ? "start" : ids[i - 1], id)),
});

async function save(graph: object) {
  return (await createChatflow({ name: "Nodes", type: "AGENTFLOW", graph: graph as never }, systemCaller)).id;
}
const predict = (id: string, body: object) =>
  call(prediction.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body });

describe("HTTP node", () => {
  const lookup = () =>
    straight(
      node("get", "httpAgentflow", {
        url: `${api.url}/public/ai/v0/products`,
        queryParams: [
          { key: "countryCode", value: "DE" },
          { key: "q", value: "{{question}}" },
        ],
      }),
      node("reply", "directReplyAgentflow", { directReplyMessage: "{{get.status}}" }),
    );

  it("sends the request with query parameters from variables", async () => {
    const before = api.requests.length;
    const res = await predict(await save(lookup()), { question: "laptop" });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("200");
    expect(api.requests.slice(before).map((r) => r.query)).toEqual([{ countryCode: "DE", q: "laptop" }]);
  });

  it("aimed at a private address is 403, like every outbound call, and sends nothing", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "false";
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    resetEnvForTests();
    try {
      const before = api.requests.length;
      const res = await predict(await save(lookup()), { question: "laptop" });
      expect(res.status).toBe(403);
      expect(res.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
      expect(api.requests.length).toBe(before);
    } finally {
      process.env.OUTBOUND_ALLOW_PRIVATE = "true";
      resetEnvForTests();
    }
  });
});

describe("global variables", () => {
  it("{{$vars.name}} reads an admin's variable; an unknown name is a problem when the flow is checked", async () => {
    await createVariable({ name: "company", value: "Switchyard AB", type: "static" });
    const id = await save(
      straight(node("reply", "directReplyAgentflow", { directReplyMessage: "Hi from {{$vars.company}}" })),
    );
    expect((await predict(id, { question: "hi" })).json.text).toBe("Hi from Switchyard AB");
    const unknown = await save(
      straight(node("reply", "directReplyAgentflow", { directReplyMessage: "{{$vars.nobody}}" })),
    );
    const check = await call(validateRoute.GET, { params: { id: unknown }, headers: auth.bearer(adminKey) });
    expect(check.json).toMatchObject({
      valid: false,
      problems: [
        expect.objectContaining({
          code: "unknown_variable",
          nodeId: "reply",
          message: expect.stringContaining("{{$vars.nobody}}"),
        }),
      ],
    });
  });

  it("a runtime variable may only name an environment variable the operator allows", async () => {
    await expect(createVariable({ name: "DATABASE_URL", value: "", type: "runtime" })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("VARIABLES_FROM_ENV"),
    });
  });
});

describe("Execute Flow", () => {
  it("answers with another flow's answer; a flow calling itself stops at the depth limit (422)", async () => {
    const inner = await save(
      straight(node("reply", "directReplyAgentflow", { directReplyMessage: "inner got {{question}}" })),
    );
    const outer = await save(
      straight(
        node("call", "executeFlowAgentflow", { executeFlowSelectedFlow: inner, executeFlowInput: "{{question}}!" }),
      ),
    );
    const res = await predict(outer, { question: "ping" });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("inner got ping!");
    const self = await save(
      straight(
        node("call", "executeFlowAgentflow", { executeFlowSelectedFlow: "00000000-0000-4000-8000-000000000000" }),
      ),
    );
    const graph = straight(node("call", "executeFlowAgentflow", { executeFlowSelectedFlow: self }));
    await updateChatflow(self, { graph: graph as never }, systemCaller);
    const deep = await predict(self, { question: "again" });
    expect(deep.status).toBe(422);
    expect(deep.json.error.message).toContain("deeper than 3 levels");
  });
});
