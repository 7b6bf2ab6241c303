import { AIMessage, type AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { paramsSchemaFor } from "@/common/nodes/params";
import { type BrainRequest, createModelStub, type ModelStub, scriptedBrain } from "../../../dev/model-stub/server";
import { resetEnvForTests } from "../../env";
import { testContext } from "../../flow/__fixtures__/graphs";
import { toRunError } from "../../flow/run-errors";
import { createModelFetch } from "../../security/outbound-policy";
import { getDefinition } from "../registry";
import { chatGoogleGenerativeAI } from ".";
import type { GeminiChat } from "./gemini-chat";

// The model stub speaks Gemini's generateContent and streamGenerateContent (alt=sse) with the same
// brain as its OpenAI and Anthropic endpoints; the node's client is Google's own (@google/genai).
let stub: ModelStub;
const seen: BrainRequest[] = [];

beforeAll(async () => {
  stub = await createModelStub({ apiKey: "g-key" });
  process.env.OUTBOUND_ALLOW_HOSTS = new URL(stub.origin).host;
  resetEnvForTests();
});
afterAll(() => stub.close());
beforeEach(() => {
  seen.length = 0;
});

function script(...replies: Parameters<typeof scriptedBrain>[0]) {
  const brain = scriptedBrain(replies);
  stub.setBrain((req) => {
    seen.push(req);
    return brain(req);
  });
}

const gemini = async (inputs: Record<string, unknown> = {}, data: Record<string, string> = {}) => {
  const params = paramsSchemaFor(getDefinition("chatGoogleGenerativeAI")!).parse({
    credential: "g1",
    modelName: "gemini-test",
    temperature: 0.2,
    ...inputs,
  });
  const ctx = {
    ...testContext({
      g1: { name: "Gemini key", type: "googleGenerativeAI", data: { apiKey: "g-key", baseURL: stub.origin, ...data } },
    }),
    modelFetch: createModelFetch,
  };
  return (await chatGoogleGenerativeAI.runtime({
    nodeId: "g",
    label: "Gemini",
    params,
    inputs: {},
    ctx,
  })) as GeminiChat;
};

const searchTool = { name: "product_search", description: "Search products", schema: z.object({ query: z.string() }) };

describe("Gemini chat model node", () => {
  it("sends generateContent with the key, the system instruction and the generation settings", async () => {
    script({ content: "Hello from Gemini" });
    const reply = await (await gemini({ maxOutputTokens: 64, topK: 3 })).invoke([
      new SystemMessage("Be brief."),
      new HumanMessage("Hi"),
    ]);
    expect(reply.content).toBe("Hello from Gemini");
    expect(reply.usage_metadata).toMatchObject({ output_tokens: 3 });
    const sent = stub.requests.at(-1)!;
    expect(sent).toMatchObject({ path: "/v1beta/models/gemini-test:generateContent", apiKey: "g-key" });
    expect(sent.body).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "Hi" }] }],
      systemInstruction: { parts: [{ text: "Be brief." }] },
      generationConfig: { temperature: 0.2, maxOutputTokens: 64, topK: 3 },
    });
    expect(seen[0].messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ]);
  });

  it("streams tokens through streamGenerateContent?alt=sse, or asks whole when streaming is off", async () => {
    script({ content: "One word at a time." }, { content: "All at once." });
    const pieces: string[] = [];
    for await (const chunk of await (await gemini()).stream([new HumanMessage("Hi")]))
      if (typeof chunk.content === "string" && chunk.content) pieces.push(chunk.content);
    expect(pieces).toEqual(["One", " word", " at", " a", " time."]);
    expect(stub.requests.at(-1)?.path).toBe("/v1beta/models/gemini-test:streamGenerateContent");
    const whole: string[] = [];
    for await (const chunk of await (await gemini({ streaming: false })).stream([new HumanMessage("Hi")]))
      whole.push(String(chunk.content));
    expect(whole).toEqual(["All at once."]);
    expect(stub.requests.at(-1)?.path).toBe("/v1beta/models/gemini-test:generateContent");
  });

  it("calls a bound tool (whole and streamed) and hands the tool's result back as a function response", async () => {
    const call = { toolCalls: [{ name: "product_search", arguments: { query: "laptop" } }] };
    script(call, call, { content: "Found it." });
    const model = (await gemini()).bindTools([searchTool]);
    const reply = await model.invoke([new HumanMessage("find a laptop")]);
    expect(reply.tool_calls).toEqual([expect.objectContaining({ name: "product_search", args: { query: "laptop" } })]);
    expect(seen[0].tools).toEqual([
      expect.objectContaining({ name: "product_search", parameters: expect.objectContaining({ type: "object" }) }),
    ]);
    let streamed: AIMessageChunk | undefined;
    for await (const chunk of await model.stream([new HumanMessage("find a laptop")]))
      streamed = streamed ? streamed.concat(chunk) : chunk;
    expect(streamed?.tool_calls).toEqual([
      expect.objectContaining({ name: "product_search", args: { query: "laptop" } }),
    ]);
    const id = reply.tool_calls![0].id!;
    const answer = await model.invoke([
      new HumanMessage("find a laptop"),
      new AIMessage({ content: "", tool_calls: [{ id, name: "product_search", args: { query: "laptop" } }] }),
      new ToolMessage({ tool_call_id: id, content: '{"products":[]}' }),
    ]);
    expect(answer.content).toBe("Found it.");
    expect(seen[2].messages.slice(1)).toEqual([
      expect.objectContaining({ role: "assistant", tool_calls: [expect.objectContaining({ type: "function" })] }),
      expect.objectContaining({ role: "tool", name: "product_search", content: '{"products":[]}' }),
    ]);
  });

  it("maps a quota refusal to 503 and a 5xx to 502 through the model guard, both naming the node", async () => {
    // A 429 is the provider asking to wait: 503 (rate_limited), not the model's fault.
    stub.setBrain(() => ({ error: { status: 429, message: "Resource has been exhausted" } }));
    const quota = await (await gemini()).invoke("hi").catch((e: unknown) => toRunError(e));
    expect(quota).toMatchObject({
      code: "upstream_unavailable",
      details: { status: 429, reason: "rate_limited", node: { id: "g" } },
    });
    expect((quota as Error).message).toMatch(/Gemini.*rate limited by the provider .*HTTP 429/);
    stub.setBrain(() => ({ error: { status: 500, message: "Internal" } }));
    const broken = await (await gemini()).invoke("hi").catch((e: unknown) => toRunError(e));
    expect(broken).toMatchObject({ code: "upstream_error", details: { status: 500, node: { id: "g" } } });
    stub.setBrain(() => ({ error: { status: 503, message: "Overloaded" } }));
    const streamed = (async () => {
      for await (const _ of await (await gemini()).stream("hi"));
    })();
    await expect(streamed.catch((e: unknown) => toRunError(e))).resolves.toMatchObject({
      code: "upstream_unavailable",
    });
    const refused = await (await gemini({}, { apiKey: "wrong" })).invoke("hi").catch((e: unknown) => toRunError(e));
    expect(refused).toMatchObject({ code: "upstream_error", details: { reason: "credentials_refused" } });
  });

  it("sends the key only to the credential's host: a node base URL elsewhere is refused before any request", async () => {
    const before = stub.requests.length;
    await expect(gemini({ baseUrl: "https://gemini-proxy.example.com" })).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining(`may only be sent to ${new URL(stub.origin).host}`),
    });
    const { credentialHosts } = await import("../../security/credential-hosts");
    expect(credentialHosts({ name: "g", type: "googleGenerativeAI", data: { apiKey: "k" } })).toEqual([
      "generativelanguage.googleapis.com",
    ]);
    expect(stub.requests.length).toBe(before);
  });
});
