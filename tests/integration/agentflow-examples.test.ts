import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import { fixtureLaptops } from "../../dev/product-api/catalog";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { readExampleFlows } from "../../lib/services/examples";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import type { Graph } from "@/common/schemas/graph";

/**
 * The three example agentflows of flows/ end to end through the prediction route, on the scripted
 * model's default brain (dev/model-stub) and the demo product API: model and API calls are counted.
 */

let stub: ModelStub;
let api: ProductApi;
let key: string;

beforeAll(async () => {
  stub = await createModelStub();
  api = await createProductApi({ catalog: fixtureLaptops() });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  key = (await createApiKey({ name: "examples", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(async () => {
  await stub.close();
  await api.close();
});

const modelCalls = () => stub.requests.filter((r) => r.path.endsWith("/chat/completions")).length;

/** Saves an example (its HTTP nodes pointed at the test's product API) and returns a predict function. */
async function example(file: string) {
  const found = readExampleFlows().find((e) => e.file === file)!;
  const graph = structuredClone(found.graph) as Graph;
  for (const n of graph.nodes)
    if (n.type === "httpAgentflow")
      n.data.inputs.url = String(n.data.inputs.url).replace("http://127.0.0.1:4010", api.url);
  const id = (await createChatflow({ name: found.name, type: found.type, graph: graph as never }, systemCaller)).id;
  return (body: object) => call(prediction.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body });
}

const ran = (res: { json: { agentFlowExecutedData: { nodeId: string }[] } }) =>
  res.json.agentFlowExecutedData.map((n) => n.nodeId);

describe("example agentflows", () => {
  it("supervisor: routes to the billing worker, loops back, routes to the technical worker, loops back, finishes", async () => {
    const predict = await example("agentflow-supervisor.json");
    const before = modelCalls();
    const res = await predict({ question: "My invoice is wrong and the app crashes at login" });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(ran(res)).toEqual([
      "start",
      "plan",
      "supervisor",
      "billing",
      "billingDone",
      "plan",
      "supervisor",
      "technical",
      "technicalDone",
      "plan",
      "supervisor",
      "answer",
    ]);
    // Three routing decisions and two workers.
    expect(modelCalls() - before).toBe(5);
    expect(res.json.text).toMatch(
      /^Billing: .*Handle the billing part of: My invoice.*\nTechnical: .*Handle the technical part/s,
    );
  });

  it("research: plans sub-questions, researches each in an Iteration, answers from the notes", async () => {
    const predict = await example("agentflow-research.json");
    const before = modelCalls();
    const res = await predict({ question: "What is QuickJS? How does PGlite store data?" });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(ran(res)).toEqual(["start", "plan", "research", "answer"]);
    // The plan, one note per sub-question, the answer.
    expect(modelCalls() - before).toBe(4);
    const research = res.json.agentFlowExecutedData.find((n: { nodeId: string }) => n.nodeId === "research");
    expect(research.data.output.results).toEqual([
      expect.stringContaining("What is QuickJS?"),
      expect.stringContaining("How does PGlite store data?"),
    ]);
    expect(res.json.text).toContain("Notes:");
  });

  it("refund approval: pauses; proceed calls the product API through the HTTP node once and confirms", async () => {
    const predict = await example("agentflow-refund-approval.json");
    const paused = await predict({ question: "Please refund order 42", chatId: "example-proceed" });
    expect(paused.status, JSON.stringify(paused.json)).toBe(200);
    expect(paused.json.action).toMatchObject({ data: { nodeId: "approve" } });
    const apiBefore = api.requests.length;
    const modelBefore = modelCalls();
    const done = await predict({ chatId: "example-proceed", humanInput: { type: "proceed", startNodeId: "approve" } });
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    expect(api.requests.length - apiBefore).toBe(1);
    expect(api.requests.at(-1)!.query).toMatchObject({ countryCode: "DE", q: "laptop", size: "1" });
    expect(modelCalls() - modelBefore).toBe(0);
    expect(done.json.text).toMatch(/^Refund approved \(approved\)\. Product check answered 200: \{"products":/);
  });

  it("refund approval: reject answers with the reviewer's feedback and calls no API", async () => {
    const predict = await example("agentflow-refund-approval.json");
    await predict({ question: "Please refund order 43", chatId: "example-reject" });
    const apiBefore = api.requests.length;
    const res = await predict({
      chatId: "example-reject",
      humanInput: { type: "reject", startNodeId: "approve", feedback: "outside the 30-day window" },
    });
    expect(res.status).toBe(200);
    expect(res.json.text).toBe("Refund not approved: outside the 30-day window");
    expect(api.requests.length).toBe(apiBefore);
  });
});
