import { afterEach, describe, expect, it } from "vitest";
import { edge, node, testContext } from "./__fixtures__/graphs";
import { type BrainReply, createModelStub, scriptedBrain } from "../../dev/model-stub/server";
import { fixtureLaptops } from "../../dev/product-api/catalog";
import { createProductApi } from "../../dev/product-api/server";
import { productSearchSpec } from "../../dev/product-api/spec";
import { buildFlow } from "./build";
import { FlowCache } from "./cache";
import type { BuiltFlow } from "./types";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** The parts of a chat completions request these tests read. */
type RequestBody = { messages: unknown[]; tools: { function: Record<string, unknown> }[] };

/** The model stub answering `replies` in order; `bodies` are the chat requests it received. */
async function openai(replies: BrainReply[]) {
  const stub = await createModelStub({ brain: scriptedBrain(replies) });
  closers.push(stub.close);
  return {
    baseURL: stub.url,
    get bodies() {
      return stub.requests.map((r) => r.body as RequestBody);
    },
  };
}

const modelNode = (baseURL: string, extra: Record<string, unknown> = {}) =>
  node("model", "chatOpenAICompatible", { model: "local-model", baseURL, temperature: 0, ...extra });

describe("buildFlow + run through an OpenAI-compatible server", () => {
  it("builds in dependency order, passes objects by input name and streams tokens", async () => {
    const server = await openai([{ content: "Cats are liquid, says the joke." }]);
    const flow = await buildFlow(
      {
        nodes: [
          node("chain", "llmChain"),
          node("prompt", "promptTemplate", { template: "Tell me a joke about {topic}" }),
          modelNode(server.baseURL),
        ],
        edges: [edge("model", "chatModel", "chain", "model"), edge("prompt", "prompt", "chain", "prompt")],
      },
      testContext(),
    );
    expect(flow).toMatchObject({ endingNodeId: "chain", allowsImages: false });
    expect(flow.memoryType).toBeUndefined();
    const tokens: string[] = [];
    const result = await flow.run({
      question: "cats",
      history: [{ role: "userMessage", content: "ignored without memory" }],
      onToken: (t) => tokens.push(t),
    });
    // usage: the tokens the model reported for its one call (the stub counts words), under the
    // model's name as the server answered it, not estimated.
    expect(result).toEqual({
      text: "Cats are liquid, says the joke.",
      usedTools: [],
      usage: {
        promptTokens: expect.any(Number),
        completionTokens: expect.any(Number),
        estimated: false,
        models: [{ model: "local-model", promptTokens: expect.any(Number), completionTokens: expect.any(Number) }],
      },
    });
    expect(result.usage!.completionTokens).toBeGreaterThan(0);
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join("")).toBe(result.text);
    expect(server.bodies[0]).toMatchObject({
      model: "local-model",
      stream: true,
      messages: [{ role: "user", content: "Tell me a joke about cats" }],
    });
  });

  it("sets no history limit when the memory has no window size (it shows the whole history)", async () => {
    const server = await openai([{ content: "ok" }]);
    const flow = await buildFlow(
      {
        nodes: [modelNode(server.baseURL), node("memory", "bufferMemory", {}), node("conv", "conversationChain", {})],
        edges: [edge("model", "chatModel", "conv", "model"), edge("memory", "memory", "conv", "memory")],
      },
      testContext(),
    );
    expect(flow.memoryType).toBe("Buffer Memory");
    expect(flow.historyLimit).toBeUndefined();
  });

  it("gives a conversation chain the memory's window of history and the images", async () => {
    const server = await openai([{ content: "A red square, and you are Ada." }]);
    const flow = await buildFlow(
      {
        nodes: [
          modelNode(server.baseURL, { allowImageUploads: true }),
          node("memory", "bufferMemory", { windowSize: 2 }),
          node("conv", "conversationChain", { systemMessage: "Be brief." }),
        ],
        edges: [edge("model", "chatModel", "conv", "model"), edge("memory", "memory", "conv", "memory")],
      },
      testContext(),
    );
    expect(flow).toMatchObject({ memoryType: "Buffer Memory", allowsImages: true });
    // The service reads only as many stored messages as the window shows.
    expect(flow.historyLimit).toBe(2);
    const history = [
      { role: "userMessage" as const, content: "first" },
      { role: "apiMessage" as const, content: "first answer" },
      { role: "userMessage" as const, content: "I am Ada" },
      { role: "apiMessage" as const, content: "Hello Ada" },
    ];
    const tokens: string[] = [];
    const result = await flow.run({
      question: "What is this, and who am I?",
      history,
      images: [{ mime: "image/png", base64: "iVBORw0KGgo=" }],
      onToken: (t) => tokens.push(t),
    });
    expect(tokens.join("")).toBe(result.text);
    expect(server.bodies[0].messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "I am Ada" },
      { role: "assistant", content: "Hello Ada" },
      {
        role: "user",
        content: [
          { type: "text", text: "What is this, and who am I?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        ],
      },
    ]);
  });

  it("runs a Tool Agent whose tool is an OpenAPI chain, end to end over HTTP", async () => {
    const api = await createProductApi({ catalog: fixtureLaptops() });
    closers.push(api.close);
    const server = await openai([
      { toolCalls: [{ name: "product_search", arguments: { input: "laptop, Germany, max 1500" } }] },
      { toolCalls: [{ name: "productsUsingGET", arguments: { countryCode: "DE", q: "laptop", max_price: 1500 } }] },
      { content: "ThinkBook 14 for 899 and ZenBook Pro for 1399." },
      { content: "I found the ThinkBook 14 (899) and the ZenBook Pro (1399)." },
    ]);
    const flow = await buildFlow(
      {
        nodes: [
          modelNode(server.baseURL),
          node("api", "openApiChain", { spec: productSearchSpec, serverUrl: api.url }),
          node("tool", "chainTool", { name: "product_search", description: "Finds products." }),
          node("agent", "toolAgent", {}),
        ],
        edges: [
          edge("model", "chatModel", "api", "model"),
          edge("api", "chain", "tool", "chain"),
          edge("tool", "tool", "agent", "tools"),
          edge("model", "chatModel", "agent", "model"),
        ],
      },
      testContext(),
    );
    const tokens: string[] = [];
    const result = await flow.run({
      question: "Laptop under 1500 in Germany?",
      history: [],
      onToken: (t) => tokens.push(t),
    });
    expect(result.text).toBe("I found the ThinkBook 14 (899) and the ZenBook Pro (1399).");
    expect(tokens.join("")).toBe(result.text);
    expect(result.usedTools).toEqual([
      {
        tool: "product_search",
        toolInput: { input: "laptop, Germany, max 1500" },
        toolOutput: "ThinkBook 14 for 899 and ZenBook Pro for 1399.",
      },
    ]);
    expect(server.bodies[0].tools).toEqual([
      expect.objectContaining({ type: "function", function: expect.objectContaining({ name: "product_search" }) }),
    ]);
    expect(server.bodies[1].tools[0].function).toMatchObject({
      name: "productsUsingGET",
      parameters: { required: ["countryCode", "q"] },
    });
    expect(api.requests.map((r) => new URL(r.url, api.url).search)).toEqual([
      "?countryCode=DE&q=laptop&max_price=1500",
    ]);
  });

  it("turns an unreachable model server into upstream_unavailable", async () => {
    const flow = await buildFlow(
      {
        nodes: [modelNode("http://127.0.0.1:9/v1"), node("conv", "conversationChain")],
        edges: [edge("model", "chatModel", "conv", "model")],
      },
      testContext(),
    );
    await expect(flow.run({ question: "hi", history: [] })).rejects.toMatchObject({ code: "upstream_unavailable" });
  });
});

describe("FlowCache", () => {
  const fakeFlow = (v: number) =>
    ({
      chatflowId: "f",
      endingNodeId: String(v),
      allowsImages: false,
      run: async () => ({ text: "", usedTools: [] }),
    }) as BuiltFlow;

  it("builds once for concurrent requests, retries after a failure and keeps versions until the chatflow changes", async () => {
    const cache = new FlowCache();
    let builds = 0;
    const build = (v: number) => async () => {
      builds += 1;
      await new Promise((r) => setTimeout(r, 5));
      return fakeFlow(v);
    };
    const [a, b] = await Promise.all([
      cache.get({ chatflowId: "f", version: 1 }, build(1)),
      cache.get({ chatflowId: "f", version: 1 }, build(1)),
    ]);
    expect(a).toBe(b);
    expect(builds).toBe(1);

    await expect(
      cache.get({ chatflowId: "g", version: 1 }, async () => Promise.reject(new Error("boom"))),
    ).rejects.toThrow("boom");
    expect((await cache.get({ chatflowId: "g", version: 1 }, build(1))).endingNodeId).toBe("1");

    // The published version (1) and the draft (2) are both kept; a change of the chatflow drops both.
    await cache.get({ chatflowId: "f", version: 2 }, build(2));
    expect(cache.size).toBe(3);
    expect(await cache.get({ chatflowId: "f", version: 1 }, build(1))).toBe(a);
    cache.invalidate("f");
    expect(cache.size).toBe(1);
    const again = await cache.get({ chatflowId: "f", version: 1 }, build(1));
    expect(again).not.toBe(a);
  });
});
