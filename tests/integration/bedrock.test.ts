import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentialTest from "../../app/api/v1/credentials/[id]/test/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { parseSse } from "../../dev/route-server";
import { auth, call } from "../support/http";

// Flowise's AWS Bedrock chat model in a Tool Agent flow: imported, given an AWS Bedrock credential
// pointing at the model stub (which speaks Converse and ConverseStream and checks the SigV4
// signature), then asked a question the agent answers with the calculator, whole and streamed.
const KEYS = { accessKeyId: "AKIAFLOWTESTKEY00001", secretAccessKey: "flow/test/Secret+Key0123456789abcdefghijk" };
const MODEL = "anthropic.claude-3-5-sonnet-20241022-v2:0";
let stub: ModelStub;
let session: Record<string, string>;

beforeAll(async () => {
  stub = await createModelStub({ aws: KEYS });
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: new URL(stub.origin).host });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => stub.close());

/** A Tool Agent on Bedrock with a calculator, as Flowise exports it (AWSChatBedrock's own inputs). */
const flowiseAgent = {
  nodes: [
    {
      id: "awsChatBedrock_0",
      position: { x: 0, y: 0 },
      data: {
        name: "awsChatBedrock",
        label: "AWS ChatBedrock",
        credential: "flowise-cred-id",
        inputs: {
          cache: "",
          region: "us-east-1",
          model: "anthropic.claude-3-haiku-20240307-v1:0",
          customModel: MODEL,
          streaming: true,
          temperature: "0.3",
          max_tokens_to_sample: "400",
          allowImageUploads: false,
          latencyOptimized: false,
        },
      },
    },
    { id: "calculator_0", position: { x: 0, y: 200 }, data: { name: "calculator", label: "Calculator", inputs: {} } },
    {
      id: "bufferMemory_0",
      position: { x: 0, y: 400 },
      data: { name: "bufferMemory", label: "Buffer Memory", inputs: {} },
    },
    {
      id: "toolAgent_0",
      position: { x: 400, y: 100 },
      data: {
        name: "toolAgent",
        label: "Tool Agent",
        inputs: {
          model: "{{awsChatBedrock_0.data.instance}}",
          tools: ["{{calculator_0.data.instance}}"],
          memory: "{{bufferMemory_0.data.instance}}",
          systemMessage: "You do sums with the calculator.",
        },
      },
    },
  ],
  edges: [],
};

async function importAgent(secret = KEYS.secretAccessKey) {
  const res = await call(importRoute.POST, {
    method: "POST",
    headers: session,
    body: { name: "Bedrock agent", ...flowiseAgent },
  });
  expect(res.status, res.text.slice(0, 400)).toBe(201);
  const graph = structuredClone(res.json.graph) as Graph;
  const model = graph.nodes.find((n) => n.id === "awsChatBedrock_0")!;
  expect(model.type).toBe("awsChatBedrock");
  expect(model.data.inputs).toMatchObject({ model: MODEL, temperature: 0.3, maxTokens: 400, streaming: true });
  // The node's region is the credential's now: the import says so.
  expect(JSON.stringify(res.json)).toMatch(/region is not carried over/);
  const cred = await call(credentials.POST, {
    method: "POST",
    headers: session,
    body: {
      name: "AWS keys",
      type: "awsBedrock",
      data: { accessKeyId: KEYS.accessKeyId, apiKey: secret, region: "us-east-1", baseURL: stub.origin },
    },
  });
  expect(cred.status, cred.text).toBe(201);
  model.data.inputs.credential = cred.json.id;
  const saved = await call(chatflowById.PUT, {
    method: "PUT",
    params: { id: res.json.id },
    headers: session,
    body: { graph },
  });
  expect(saved.status, saved.text.slice(0, 300)).toBe(200);
  return { id: res.json.id as string, credentialId: cred.json.id as string };
}

/** The brain: call the calculator first, then answer with what it said. */
function calculatorBrain() {
  stub.setBrain((req) => {
    const result = req.messages.find((m) => m.role === "tool");
    if (!result) return { toolCalls: [{ name: req.tools[0].name, arguments: { expression: "6 * 7" } }] };
    return { content: `The answer is ${result.content}.` };
  });
}

describe("AWS Bedrock chat model in a flow", () => {
  it("an imported Tool Agent on Bedrock calls the calculator and answers (whole)", async () => {
    const { id } = await importAgent();
    calculatorBrain();
    const before = stub.requests.length;
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: session,
      body: { question: "What is 6 times 7?" },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe("The answer is 42.");
    const sent = stub.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual([`/model/${MODEL}/converse`, `/model/${MODEL}/converse`]);
    expect(sent[0].body).toMatchObject({
      system: [{ text: expect.stringContaining("calculator") }],
      inferenceConfig: { temperature: 0.3, maxTokens: 400 },
      toolConfig: { tools: [{ toolSpec: { name: "calculator" } }] },
    });
    expect(sent[1].body).toMatchObject({
      messages: expect.arrayContaining([
        expect.objectContaining({
          role: "user",
          content: [expect.objectContaining({ toolResult: expect.objectContaining({ content: [{ text: "42" }] }) })],
        }),
      ]),
    });
  });

  it("streams the agent's answer as tokens from ConverseStream's event stream", async () => {
    const { id } = await importAgent();
    calculatorBrain();
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: session,
      body: { question: "What is 6 times 7?", streaming: true },
    });
    expect(res.status).toBe(200);
    expect(stub.requests.at(-1)?.path).toBe(`/model/${MODEL}/converse-stream`);
    const events = parseSse(res.text);
    const tokens = events.filter((e) => e.event === "token").map((e) => e.data);
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join("")).toBe("The answer is 42.");
    expect(events.at(-1)?.event).toBe("end");
  });

  it("keys AWS refuses: 502 saying the credential was refused, the secret never in the answer; the Test says so too", async () => {
    const { id, credentialId } = await importAgent("a-wrong-secret-for-this-key-id");
    calculatorBrain();
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: session,
      body: { question: "Hi" },
    });
    expect(res.status).toBe(502);
    expect(res.json.error.message).toMatch(/refused the credentials \(HTTP 403\)/);
    expect(res.text).not.toContain("a-wrong-secret-for-this-key-id");
    const tested = await call(credentialTest.POST, { method: "POST", params: { id: credentialId }, headers: session });
    expect(tested.json).toMatchObject({
      ok: false,
      status: 403,
      message: expect.stringContaining("InvalidSignatureException"),
    });
    expect(tested.text).not.toContain("a-wrong-secret-for-this-key-id");
  });

  it("the credential Test makes one signed call that runs no model (ListAsyncInvokes)", async () => {
    const { credentialId } = await importAgent();
    const before = stub.requests.length;
    const tested = await call(credentialTest.POST, { method: "POST", params: { id: credentialId }, headers: session });
    expect(tested.json).toEqual({
      ok: true,
      host: new URL(stub.origin).host,
      status: 200,
      message: `${new URL(stub.origin).host} accepted the credential.`,
    });
    expect(stub.requests.slice(before)).toEqual([
      expect.objectContaining({
        method: "GET",
        path: "/async-invoke",
        authorization: expect.stringMatching(/^AWS4-HMAC-SHA256 Credential=AKIAFLOWTESTKEY00001\//),
      }),
    ]);
  });
});
