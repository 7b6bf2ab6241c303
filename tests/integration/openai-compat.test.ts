// Issue 33: the OpenAI-compatible API (/api/v1/openai), called by the clients its users point at it —
// the official `openai` SDK and LangChain's ChatOpenAI — over real HTTP, against a flow answering
// through the scripted model. A flow is a model; sessions, history, usage and OpenAI-shaped errors.
import { ChatOpenAI } from "@langchain/openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerModelStub } from "../support/server-model-stub";
import { exampleFlow } from "../../dev/flows";
import type { ModelStub } from "../../dev/model-stub/server";
import type { ChatMessage } from "../../dev/model-stub/brain";
import { estimateUsage } from "../../dev/model-stub/wire";
import { serveRoutes } from "../../dev/route-server";
import * as models from "../../app/api/v1/openai/models/route";
import * as completions from "../../app/api/v1/openai/chat/completions/route";
import * as responses from "../../app/api/v1/openai/responses/route";
import { createChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { createUser } from "../../lib/services/users";
import { fixtureKeyOwner, userCaller } from "../../dev/callers";

let stub: ModelStub;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let client: OpenAI;
let baseURL: string;
let key: string;
let flowId: string;
let builderKey: string;
let othersFlowId: string;
const FLOW = "openai conversation";

beforeAll(async () => {
  stub = await startServerModelStub();
  const admin = await fixtureKeyOwner();
  flowId = (await createChatflow({ name: FLOW, graph: exampleFlow("conversation.json").graph as never }, admin)).id;
  key = (await createApiKey({ name: "openai", permissions: ["predict"], chatflowIds: [] }, admin)).key;
  // A builder's key sees the builder's flows only; the admin's flow (even public) is not its model.
  const builder = await createUser({
    email: "openai-builder@example.invalid",
    name: "B",
    password: "a long password 1",
    role: "builder",
  });
  const builderCaller = userCaller({ ...builder, role: "builder" });
  await createChatflow({ name: "builder flow", graph: exampleFlow("conversation.json").graph as never }, builderCaller);
  othersFlowId = (
    await createChatflow(
      { name: "public admin flow", isPublic: true, graph: exampleFlow("conversation.json").graph as never },
      admin,
    )
  ).id;
  builderKey = (await createApiKey({ name: "b", permissions: ["predict"], chatflowIds: [] }, builderCaller)).key;
  server = await serveRoutes([
    { method: "GET", pattern: /^\/api\/v1\/openai\/models$/, handler: models.GET as never },
    { method: "POST", pattern: /^\/api\/v1\/openai\/chat\/completions$/, handler: completions.POST as never },
    { method: "POST", pattern: /^\/api\/v1\/openai\/responses$/, handler: responses.POST as never },
  ]);
  baseURL = `${server.url}/api/v1/openai`;
  client = new OpenAI({ apiKey: key, baseURL, maxRetries: 0 });
});
afterAll(() => Promise.all([stub.close(), server.close()]));

/** What the scripted model reported as usage for a request it answered with `content` (its own counter). */
function stubUsage(index: number, content: string) {
  const body = stub.requests[index]!.body as { messages: ChatMessage[] };
  return estimateUsage(body.messages, { content });
}

describe("GET /models", () => {
  it("lists the flows the key may run, id = the flow's id, with names", async () => {
    const list = await client.models.list();
    const mine = list.data.find((m) => m.id === flowId) as OpenAI.Models.Model & { name?: string };
    expect(mine).toMatchObject({ id: flowId, object: "model", owned_by: "switchyard", name: FLOW });
    expect(typeof mine.created).toBe("number");
  });

  it("gives a builder's key its owner's flows only", async () => {
    const builder = new OpenAI({ apiKey: builderKey, baseURL, maxRetries: 0 });
    const names = (await builder.models.list()).data.map((m) => (m as { name?: string }).name);
    expect(names).toContain("builder flow");
    expect(names).not.toContain(FLOW);
    // Another owner's flow is not a model for it, public or not (the prediction API serves public flows).
    await expect(
      builder.chat.completions.create({ model: othersFlowId, messages: [{ role: "user", content: "hi" }] }),
    ).rejects.toMatchObject({ status: 404, code: "not_found", param: "model" });
  });
});

describe("POST /chat/completions", () => {
  it("answers by flow name and by id, with usage the flow's model reported", async () => {
    const before = stub.requests.length;
    const byName = await client.chat.completions.create({
      model: FLOW,
      messages: [
        { role: "system", content: "ignored: the flow has its own instructions" },
        { role: "user", content: "hello there" },
      ],
    });
    expect(byName.object).toBe("chat.completion");
    expect(byName.model).toBe(FLOW);
    expect(byName.choices[0]!.message).toMatchObject({ role: "assistant" });
    expect(byName.choices[0]!.message.content).toMatch(/^Hello!/);
    expect(byName.choices[0]!.finish_reason).toBe("stop");
    // One model call, whose usage (as the scripted model counted it on the wire) is the answer's.
    expect(stub.requests.length - before).toBe(1);
    expect(byName.usage).toEqual(stubUsage(before, byName.choices[0]!.message.content!));
    const byId = await client.chat.completions.create({ model: flowId, messages: [{ role: "user", content: "hi" }] });
    expect(byId.choices[0]!.message.content).toMatch(/^Hello!/);
  });

  it("streams OpenAI's chunks ending in [DONE], with a usage chunk when asked", async () => {
    const stream = await client.chat.completions.create({
      model: flowId,
      messages: [{ role: "user", content: "say something long about nothing" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = "";
    let chunks = 0;
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null = null;
    for await (const chunk of stream) {
      chunks++;
      expect(chunk.object).toBe("chat.completion.chunk");
      text += chunk.choices[0]?.delta.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(text).toContain('You said: "say something long about nothing"');
    expect(chunks).toBeGreaterThan(3);
    expect(finish).toBe("stop");
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("takes earlier messages as the history when no session is named", async () => {
    const answer = await client.chat.completions.create({
      model: flowId,
      messages: [
        { role: "user", content: "my name is Ada" },
        { role: "assistant", content: "Nice to meet you, Ada!" },
        { role: "user", content: [{ type: "text", text: "what is my name?" }] },
      ],
    });
    expect(answer.choices[0]!.message.content).toBe("Your name is Ada.");
    // Each call without a session is a fresh one: the next call does not remember.
    const fresh = await client.chat.completions.create({
      model: flowId,
      messages: [{ role: "user", content: "what is my name?" }],
    });
    expect(fresh.choices[0]!.message.content).toMatch(/don't know your name/);
  });

  it("remembers a session named by `user` (or X-Session-Id) between calls", async () => {
    const first = await client.chat.completions.create({
      model: flowId,
      user: "openai-session-1",
      messages: [{ role: "user", content: "my name is Grace" }],
    });
    expect((first as unknown as { session_id: string }).session_id).toBe("openai-session-1");
    const second = await client.chat.completions.create({
      model: flowId,
      user: "openai-session-1",
      messages: [{ role: "user", content: "what is my name?" }],
    });
    expect(second.choices[0]!.message.content).toBe("Your name is Grace.");
    const byHeader = await client.chat.completions.create(
      { model: flowId, messages: [{ role: "user", content: "what is my name?" }] },
      { headers: { "X-Session-Id": "openai-session-1" } },
    );
    expect(byHeader.choices[0]!.message.content).toBe("Your name is Grace.");
  });

  it("refuses what a flow cannot answer with OpenAI-shaped 400s, 401 and 404", async () => {
    const bad = (body: object) => client.chat.completions.create(body as never);
    await expect(bad({ model: flowId, messages: [{ role: "assistant", content: "hi" }] })).rejects.toMatchObject({
      status: 400,
      type: "invalid_request_error",
      code: "validation_failed",
      param: "messages[0].role",
    });
    await expect(bad({ model: flowId, messages: [{ role: "user", content: "hi" }], n: 2 })).rejects.toMatchObject({
      status: 400,
      type: "invalid_request_error",
    });
    await expect(
      bad({ model: flowId, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] }),
    ).rejects.toMatchObject({ status: 400, param: "messages[0].content[0].type" });
    await expect(bad({ model: "no such flow", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({
      status: 404,
      type: "not_found_error",
      code: "not_found",
    });
    const wrongKey = new OpenAI({ apiKey: "sk-wrong", baseURL, maxRetries: 0 });
    const denied = await wrongKey.models.list().catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((denied as InstanceType<typeof OpenAI.AuthenticationError>).type).toBe("authentication_error");
    // The key is never repeated back.
    expect(JSON.stringify((denied as { error?: unknown }).error)).not.toContain("sk-wrong");
  });
});

describe("POST /responses", () => {
  it("answers text input and message items, whole and streamed", async () => {
    const whole = await client.responses.create({ model: flowId, input: "hello" });
    expect(whole.status).toBe("completed");
    expect(whole.output_text).toMatch(/^Hello!/);
    expect(whole.usage?.total_tokens).toBeGreaterThan(0);
    const items = await client.responses.create({
      model: flowId,
      input: [
        { role: "user", content: "my name is Lin" },
        { role: "assistant", content: "Nice to meet you, Lin!" },
        { role: "user", content: [{ type: "input_text", text: "what is my name?" }] },
      ],
    });
    expect(items.output_text).toBe("Your name is Lin.");
    const stream = await client.responses.create({ model: flowId, input: "tell me anything", stream: true });
    const types: string[] = [];
    let deltas = "";
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "response.output_text.delta") deltas += event.delta;
      if (event.type === "response.completed") completed = event.response;
    }
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(types).toContain("response.output_text.done");
    expect(deltas).toContain('You said: "tell me anything"');
    const message = completed?.output[0] as { content: { text: string }[] } | undefined;
    expect(message?.content[0]?.text).toBe(deltas);
  });
});

describe("LangChain's ChatOpenAI pointed at a flow", () => {
  it("invokes and streams", async () => {
    const model = new ChatOpenAI({ model: FLOW, apiKey: key, configuration: { baseURL }, maxRetries: 0 });
    const answer = await model.invoke("hello");
    expect(answer.content).toMatch(/^Hello!/);
    expect(answer.usage_metadata?.total_tokens).toBeGreaterThan(0);
    let streamed = "";
    for await (const chunk of await model.stream("what a nice day")) streamed += chunk.content;
    expect(streamed).toContain('You said: "what a nice day"');
  });
});
