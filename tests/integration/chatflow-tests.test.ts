import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { userCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as cases from "../../app/api/v1/chatflows/[id]/tests/route";
import * as caseById from "../../app/api/v1/chatflows/[id]/tests/[caseId]/route";
import * as run from "../../app/api/v1/chatflows/[id]/tests/run/route";
import * as runs from "../../app/api/v1/chatflows/[id]/tests/runs/route";
import * as runById from "../../app/api/v1/chatflows/[id]/tests/runs/[runId]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as publish from "../../app/api/v1/chatflows/[id]/publish/route";
import * as versionList from "../../app/api/v1/chatflows/[id]/versions/route";
import { createChatflow } from "../../lib/services/chatflows";
import { publishVersion } from "../../lib/services/chatflow-versions";
import { isAppError } from "@/common/errors";
import { createApiKey } from "../../lib/services/api-keys";
import { createUser, setupFirstAdmin } from "../../lib/services/users";
import { chatflowTestRunQueue } from "../../lib/services/chatflow-tests/runs";
import { readExampleFlows } from "../../lib/services/examples";

let stub: ModelStub;
let productApi: ProductApi;
let session: Record<string, string>;
let adminCaller: ReturnType<typeof userCaller>;
let builderSession: Record<string, string>;
let chatflowsKey: string;
const flows: Record<string, string> = {};

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "admin@tests.test", name: "Admin", password: "admin-pass-1" });
  const builder = await createUser({ email: "b@tests.test", name: "B", password: "builder-pass-1", role: "builder" });
  session = await auth.session(admin.id);
  builderSession = await auth.session(builder.id);
  const as = userCaller(admin);
  adminCaller = as;
  const make = async (name: string, f: ReturnType<typeof exampleFlow>) => {
    flows[name] = (
      await createChatflow({ name, graph: f.graph as never, overrideAllowList: f.overrideAllowList }, as)
    ).id;
  };
  await make("agent", exampleFlow("product-search-agent.json", { productApiUrl: productApi.url }));
  await make("chainOnly", exampleFlow("openapi-chain-only.json", { productApiUrl: productApi.url }));
  chatflowsKey = (await createApiKey({ name: "cf", permissions: ["chatflows"], chatflowIds: [] }, as)).key;
});
afterAll(() => Promise.all([stub.close(), productApi.close()]));

const smallTalk = {
  name: "Small talk does not search",
  question: "Hello! How are you today?",
  expectations: [
    { type: "status", value: 200 },
    { type: "toolNotCalled", tool: "product_search" },
  ],
};
const laptop = {
  name: "Laptop in Germany under 1500",
  question: "find me a laptop under 1500 in Germany",
  expectations: [
    { type: "status", value: 200 },
    { type: "toolCalled", tool: "product_search" },
    { type: "answerContains", value: "Laptop" },
    { type: "answerMatches", pattern: "\\d+\\.\\d\\d EUR" },
    { type: "latencyBelow", ms: 1 },
  ],
};

const addCase = (flow: string, body: object, headers = session) =>
  call(cases.POST, { method: "POST", params: { id: flows[flow] ?? flow }, headers, body });
const listCases = (flow: string, headers = session) =>
  call(cases.GET, { params: { id: flows[flow] ?? flow }, headers });
const startRun = (flow: string, body: object = {}, headers = session) =>
  call(run.POST, { method: "POST", params: { id: flows[flow] ?? flow }, headers, body });
const getRun = (flow: string, runId: string, headers = session) =>
  call(runById.GET, { params: { id: flows[flow] ?? flow, runId }, headers });

async function runToEnd(flow: string, body: object = {}) {
  const res = await startRun(flow, body);
  expect(res.status).toBe(202);
  await chatflowTestRunQueue().drained();
  const got = await getRun(flow, res.json.runId);
  expect(got.status).toBe(200);
  return got.json;
}

describe("test cases", () => {
  it("are added, listed, replaced and deleted; each case is checked when saved", async () => {
    const added = await addCase("agent", smallTalk);
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({ name: smallTalk.name, chatflowId: flows.agent });
    const put = await call(caseById.PUT, {
      method: "PUT",
      params: { id: flows.agent!, caseId: added.json.id },
      headers: session,
      body: { ...smallTalk, name: "Renamed" },
    });
    expect(put.status).toBe(200);
    expect((await listCases("agent")).json.map((c: { name: string }) => c.name)).toEqual(["Renamed"]);
    const del = await call(caseById.DELETE, {
      method: "DELETE",
      params: { id: flows.agent!, caseId: added.json.id },
      headers: session,
    });
    expect(del.json).toEqual({ deleted: true, id: added.json.id });
    expect((await listCases("agent")).json).toEqual([]);
  });

  it("refuses a bad pattern, a bad schema and a missing question with 400s naming the field", async () => {
    const badPattern = await addCase("agent", {
      ...smallTalk,
      expectations: [{ type: "answerMatches", pattern: "([a-z]" }],
    });
    expect(badPattern.status).toBe(400);
    expect(badPattern.json.error.message).toMatch(/^Expectation 1: the pattern is not a valid regular expression/);
    expect(badPattern.json.error.details[0]).toMatchObject({ field: "body.expectations.0.pattern" });
    const badSchema = await addCase("agent", {
      ...smallTalk,
      expectations: [{ type: "answerJsonSchema", schema: { type: 42 } }],
    });
    expect(badSchema.status).toBe(400);
    expect(badSchema.json.error.details[0].path).toEqual(["expectations", 0, "schema"]);
    const noQuestion = await addCase("agent", { name: "x", expectations: [{ type: "status", value: 200 }] });
    expect(noQuestion.status).toBe(400);
    expect(JSON.stringify(noQuestion.json.error.details)).toContain("question");
    const unknownType = await addCase("agent", { ...smallTalk, expectations: [{ type: "vibes" }] });
    expect(unknownType.status).toBe(400);
  });

  it("belong to the chatflow's managers: another builder gets 404, a chatflows key may manage them", async () => {
    expect((await listCases("agent", builderSession)).status).toBe(404);
    expect((await addCase("agent", smallTalk, builderSession)).status).toBe(404);
    const viaKey = await addCase("agent", smallTalk, auth.bearer(chatflowsKey));
    expect(viaKey.status).toBe(201);
    await call(caseById.DELETE, {
      method: "DELETE",
      params: { id: flows.agent!, caseId: viaKey.json.id },
      headers: session,
    });
  });
});

describe("test runs", () => {
  it("run every case through the scripted model and report per expectation, stored for the version", async () => {
    await addCase("agent", smallTalk);
    await addCase("agent", laptop);
    const before = productApi.requests.length;
    const result = await runToEnd("agent");
    expect(result).toMatchObject({ status: "finished", total: 2, passed: 2, failed: 0, version: 1 });
    const [talk, search] = result.results;
    expect(talk).toMatchObject({ name: smallTalk.name, pass: true, status: 200, usedTools: [] });
    expect(search.pass).toBe(true);
    expect(search.usedTools[0]).toMatchObject({ tool: "product_search" });
    expect(search.answer).toMatch(/Laptop \(\d+\.\d\d EUR\)/);
    // The product API was called once, by the laptop case, with the question's country, product and price.
    const calls = productApi.requests.slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.query).toMatchObject({ countryCode: "DE", q: "laptop", max_price: "1500" });
    // Latency is reported (it failed: 1 ms) but does not fail the case.
    const latency = search.expectations.find(
      (e: { expectation: { type: string } }) => e.expectation.type === "latencyBelow",
    );
    expect(latency).toMatchObject({ pass: false, gating: false });
    const listed = await call(runs.GET, { params: { id: flows.agent! }, path: "/x?version=1", headers: session });
    expect(listed.status).toBe(200);
    expect(listed.json[0]).toMatchObject({ id: expect.any(String), version: 1, passed: 2, failed: 0 });
    expect(listed.json[0].results).toBeUndefined();
  });

  it("report a failing case with expected and actual, and the chain alone's 422 as its status", async () => {
    await addCase("chainOnly", {
      name: "Small talk is refused",
      question: "Hello there, how are you?",
      expectations: [{ type: "status", value: 422 }],
    });
    await addCase("chainOnly", {
      name: "Small talk answers (wrongly expected)",
      question: "Hello there, how are you?",
      expectations: [
        { type: "status", value: 200 },
        { type: "answerContains", value: "hello" },
      ],
    });
    const result = await runToEnd("chainOnly");
    expect(result).toMatchObject({ status: "finished", total: 2, passed: 1, failed: 1 });
    const [refused, wrong] = result.results;
    expect(refused).toMatchObject({ pass: true, status: 422, error: { code: "openapi_no_operation" } });
    expect(wrong.pass).toBe(false);
    expect(wrong.expectations[0]).toMatchObject({ pass: false, expected: "status 200", actual: "status 422" });
  });

  it("never write a conversation or read a real session's memory", async () => {
    const db = await getDb();
    // A real user's session on the agent, which has Buffer Memory: the test case uses the same sessionId.
    const real = await call(prediction.POST, {
      method: "POST",
      params: { id: flows.agent! },
      headers: session,
      body: { question: "Hi, my name is Ada.", overrideConfig: { sessionId: "user-ada" } },
    });
    expect(real.status).toBe(200);
    const messagesBefore = await db.chatMessage.count();
    const memoryCase = await addCase("agent", {
      name: "Does not know the user",
      question: "What is my name?",
      overrideConfig: { sessionId: "user-ada" },
      expectations: [{ type: "answerNotContains", value: "Ada" }],
    });
    expect(memoryCase.status).toBe(201);
    const result = await runToEnd("agent");
    expect(result.status).toBe("finished");
    expect(result.results.find((r: { name: string }) => r.name === "Does not know the user").pass).toBe(true);
    expect(await db.chatMessage.count()).toBe(messagesBefore);
    // The real session still remembers, and holds only its own exchange.
    const again = await call(prediction.POST, {
      method: "POST",
      params: { id: flows.agent! },
      headers: session,
      body: { question: "What is my name?", overrideConfig: { sessionId: "user-ada" } },
    });
    expect(again.json.text).toContain("Ada");
    expect(await db.chatMessage.count({ where: { sessionId: "user-ada" } })).toBe(4);
  });

  it("answer 404 for an unknown run or version, and 400 for a bad version", async () => {
    expect((await getRun("agent", "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const unknown = await startRun("agent", { version: 99 });
    expect(unknown.status).toBe(404);
    expect((await startRun("agent", { version: 0 })).status).toBe(400);
    expect((await startRun("agent", {}, builderSession)).status).toBe(404);
  });
});

/** The publish service's refusal, or null when it published. */
async function publishRefusal(flow: string, version: number) {
  try {
    await publishVersion(flows[flow]!, version, adminCaller);
    return null;
  } catch (err) {
    if (isAppError(err))
      return {
        status: err.status,
        message: err.message,
        details: err.details as { failing: { name: string }[]; notRun: unknown[] },
      };
    throw err;
  }
}

describe("require passing tests to publish", () => {
  it("refuses (409) a version whose cases fail or have not run, naming them, and publishes once they pass", async () => {
    const id = flows.chainOnly!;
    const put = (body: object) => call(chatflowById.PUT, { method: "PUT", params: { id }, headers: session, body });
    // Off: anything publishes, tested or not.
    expect(await publishRefusal("chainOnly", 1)).toBeNull();
    expect((await put({ requirePassingTests: true })).status).toBe(200);
    // Version 1's last run (above) has one failing case.
    const failing = await publishRefusal("chainOnly", 1);
    expect(failing).toMatchObject({ status: 409, details: { version: 1, notRun: [] } });
    expect(failing!.details.failing.map((c: { name: string }) => c.name)).toEqual([
      "Small talk answers (wrongly expected)",
    ]);
    expect(failing!.message).toContain('"Small talk answers (wrongly expected)"');
    // A new version has not been tested: every case is named as not run.
    const graph = (await call(chatflowById.GET, { params: { id }, headers: session })).json.graph;
    const saved = await put({ graph, versionMessage: "same graph, new version" });
    expect(saved.json.version).toBe(2);
    const untested = await publishRefusal("chainOnly", 2);
    expect(untested?.status).toBe(409);
    expect(untested!.details.notRun).toHaveLength(2);
    // Fix the wrong case, run version 2: it publishes. Version 1 still has its failing run.
    const list = (await listCases("chainOnly")).json as { id: string; name: string }[];
    const wrong = list.find((c) => c.name.startsWith("Small talk answers"))!;
    await call(caseById.PUT, {
      method: "PUT",
      params: { id, caseId: wrong.id },
      headers: session,
      body: { name: "Small talk is refused, again", question: "Hi!", expectations: [{ type: "status", value: 422 }] },
    });
    // Edited after version 1's run: it has not run against version 1 in its new form.
    const edited = await publishRefusal("chainOnly", 1);
    expect(edited?.details).toMatchObject({
      failing: [],
      notRun: [{ caseId: wrong.id, name: "Small talk is refused, again" }],
    });
    const run2 = await runToEnd("chainOnly", { version: 2 });
    expect(run2).toMatchObject({ version: 2, passed: 2, failed: 0 });
    // Over HTTP: the publish answer and the versions list show each version's last run.
    const publishVersion = (version: number) =>
      call(publish.POST, { method: "POST", params: { id }, headers: session, body: { version } });
    const published = await publishVersion(2);
    expect(published.status).toBe(200);
    expect(published.json).toMatchObject({ publishedVersion: 2, testRun: { id: run2.id, passed: 2, failed: 0 } });
    const refused = await publishVersion(1);
    expect(refused.status).toBe(409);
    expect(refused.json.error.details).toMatchObject({
      version: 1,
      notRun: [{ name: "Small talk is refused, again" }],
    });
    const listed = await call(versionList.GET, { params: { id }, headers: session });
    const byVersion = Object.fromEntries(listed.json.versions.map((v: { version: number }) => [v.version, v]));
    expect(byVersion[2].lastTestRun).toMatchObject({ id: run2.id, passed: 2 });
    expect(byVersion[1].lastTestRun).toMatchObject({ version: 1, passed: 1, failed: 1 });
  });
});

describe("the example flows' shipped cases", () => {
  for (const file of ["product-search-agent.json", "openapi-chain-only.json", "conversation.json"] as const) {
    it(`all pass on ${file} through the scripted model`, async () => {
      const example = exampleFlow(file, { productApiUrl: productApi.url });
      const shipped = readExampleFlows().find((e) => e.file === file)!.tests;
      expect(shipped.length).toBeGreaterThanOrEqual(2);
      flows[file] = (
        await createChatflow(
          { name: file, graph: example.graph as never, overrideAllowList: example.overrideAllowList },
          adminCaller,
        )
      ).id;
      for (const t of shipped) expect((await addCase(file, t)).status).toBe(201);
      const result = await runToEnd(file);
      const failures = result.results
        .filter((r: { pass: boolean }) => !r.pass)
        .map((r: { name: string; expectations: unknown[] }) => ({ name: r.name, expectations: r.expectations }));
      expect(failures).toEqual([]);
      expect(result.passed).toBe(shipped.length);
    });
  }
});
