import { AIMessage, type AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { paramsSchemaFor } from "@/common/nodes/params";
import { type BrainRequest, createModelStub, type ModelStub, scriptedBrain } from "../../../dev/model-stub/server";
import { resetEnvForTests } from "../../env";
import { testContext } from "../../flow/__fixtures__/graphs";
import { credentialHosts } from "../../security/credential-hosts";
import { createModelFetch } from "../../security/outbound-policy";
import { getDefinition } from "../registry";
import { awsChatBedrock } from ".";
import type { BedrockChat } from "./bedrock-chat";

// The model stub speaks Bedrock's Converse and ConverseStream (AWS's binary event stream) and checks
// the SigV4 signature with the key pair below; the node's client is AWS's own SDK.
const KEYS = { accessKeyId: "AKIASTUBEXAMPLE00001", secretAccessKey: "stub/secret+Access/Key0123456789abcdefghij" };
const MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
let stub: ModelStub;
const seen: BrainRequest[] = [];

beforeAll(async () => {
  stub = await createModelStub({ aws: KEYS });
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

const credential = (data: Record<string, string> = {}) => ({
  name: "AWS keys",
  type: "awsBedrock",
  data: {
    accessKeyId: KEYS.accessKeyId,
    apiKey: KEYS.secretAccessKey,
    region: "eu-west-1",
    baseURL: stub.origin,
    ...data,
  },
});

const bedrock = async (inputs: Record<string, unknown> = {}, data: Record<string, string> = {}) => {
  const params = paramsSchemaFor(getDefinition("awsChatBedrock")!).parse({
    credential: "b1",
    model: MODEL,
    temperature: 0.2,
    ...inputs,
  });
  const ctx = { ...testContext({ b1: credential(data) }), modelFetch: createModelFetch };
  return (await awsChatBedrock.runtime({ nodeId: "b", label: "Bedrock", params, inputs: {}, ctx })) as BedrockChat;
};

const searchTool = { name: "product_search", description: "Search products", schema: z.object({ query: z.string() }) };

describe("AWS Bedrock chat model node", () => {
  it("sends a signed Converse call with the system prompt and the inference settings", async () => {
    script({ content: "Hello from Bedrock" });
    const reply = await (await bedrock({ maxTokens: 64, topP: 0.5 })).invoke([
      new SystemMessage("Be brief."),
      new HumanMessage("Hi"),
    ]);
    expect(reply.content).toBe("Hello from Bedrock");
    expect(reply.usage_metadata).toMatchObject({ output_tokens: 3 });
    const sent = stub.requests.at(-1)!;
    expect(sent.path).toBe(`/model/${MODEL}/converse`);
    // Signed for the credential's key and region, for the bedrock service (the stub checked the signature).
    expect(sent.authorization).toMatch(
      new RegExp(`^AWS4-HMAC-SHA256 Credential=${KEYS.accessKeyId}/\\d{8}/eu-west-1/bedrock/aws4_request`),
    );
    expect(sent.body).toMatchObject({
      messages: [{ role: "user", content: [{ text: "Hi" }] }],
      system: [{ text: "Be brief." }],
      inferenceConfig: { temperature: 0.2, maxTokens: 64, topP: 0.5 },
    });
    expect(seen[0].messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ]);
  });

  it("streams tokens through ConverseStream's event stream, or asks whole when streaming is off", async () => {
    script({ content: "One word at a time." }, { content: "All at once." });
    const pieces: string[] = [];
    let last: AIMessageChunk | undefined;
    for await (const chunk of await (await bedrock()).stream([new HumanMessage("Hi")])) {
      if (typeof chunk.content === "string" && chunk.content) pieces.push(chunk.content);
      last = last ? last.concat(chunk) : chunk;
    }
    expect(pieces).toEqual(["One", " word", " at", " a", " time."]);
    expect(last?.usage_metadata).toMatchObject({ output_tokens: 5 });
    expect(last?.response_metadata).toMatchObject({ finish_reason: "end_turn" });
    expect(stub.requests.at(-1)?.path).toBe(`/model/${MODEL}/converse-stream`);
    const whole: string[] = [];
    for await (const chunk of await (await bedrock({ streaming: false })).stream([new HumanMessage("Hi")]))
      whole.push(String(chunk.content));
    expect(whole).toEqual(["All at once."]);
    expect(stub.requests.at(-1)?.path).toBe(`/model/${MODEL}/converse`);
  });

  it("calls a bound tool (whole and streamed) and hands the tool's result back as a toolResult", async () => {
    const call = { toolCalls: [{ name: "product_search", arguments: { query: "laptop" } }] };
    script(call, call, { content: "Found it." });
    const model = (await bedrock()).bindTools([searchTool], { tool_choice: "any" });
    const reply = await model.invoke([new HumanMessage("find a laptop")]);
    expect(reply.tool_calls).toEqual([expect.objectContaining({ name: "product_search", args: { query: "laptop" } })]);
    expect(stub.requests.at(-1)?.body).toMatchObject({
      toolConfig: {
        tools: [
          { toolSpec: { name: "product_search", inputSchema: { json: expect.objectContaining({ type: "object" }) } } },
        ],
        toolChoice: { any: {} },
      },
    });
    let streamed: AIMessageChunk | undefined;
    for await (const chunk of await model.stream([new HumanMessage("find a laptop")]))
      streamed = streamed ? streamed.concat(chunk) : chunk;
    // The input came in two pieces of JSON text; put together it is the call's arguments.
    expect(streamed?.tool_calls).toEqual([
      expect.objectContaining({
        name: "product_search",
        args: { query: "laptop" },
        id: expect.stringMatching(/^tooluse_/),
      }),
    ]);
    const id = reply.tool_calls![0].id!;
    const answer = await model.invoke([
      new HumanMessage("find a laptop"),
      new AIMessage({ content: "", tool_calls: [{ id, name: "product_search", args: { query: "laptop" } }] }),
      new ToolMessage({ tool_call_id: id, content: '{"products":[]}' }),
    ]);
    expect(answer.content).toBe("Found it.");
    expect(stub.requests.at(-1)?.body).toMatchObject({
      messages: [
        { role: "user" },
        {
          role: "assistant",
          content: [{ toolUse: { toolUseId: id, name: "product_search", input: { query: "laptop" } } }],
        },
        { role: "user", content: [{ toolResult: { toolUseId: id, content: [{ text: '{"products":[]}' }] } }] },
      ],
    });
    expect(seen[2].messages.slice(1)).toEqual([
      expect.objectContaining({ role: "assistant", tool_calls: [expect.objectContaining({ id })] }),
      expect.objectContaining({ role: "tool", tool_call_id: id, content: '{"products":[]}' }),
    ]);
  });

  it("a wrong secret is a refused credential (the stub checks the signature), never sent back", async () => {
    script({ content: "never" });
    const err = await (await bedrock({}, { apiKey: "a-wrong-secret-key" }))
      .invoke([new HumanMessage("Hi")])
      .catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_error", details: { reason: "credentials_refused", status: 403 } });
    expect(String(err.message)).not.toContain("a-wrong-secret-key");
    expect(seen).toHaveLength(0);
  });

  it("maps throttling to 503 and a 5xx to 502, naming the node; a validation error names Bedrock's reason", async () => {
    script(
      { error: { status: 429, message: "Too many requests, please wait before trying again." } },
      { error: { status: 500, message: "boom" } },
      { error: { status: 400, message: "The provided model identifier is invalid." } },
    );
    const model = await bedrock();
    const throttled = await model.invoke([new HumanMessage("Hi")]).catch((e) => e);
    expect(throttled).toMatchObject({ code: "upstream_unavailable", details: { reason: "rate_limited", status: 429 } });
    expect(throttled.message).toMatch(/Bedrock/);
    const failed = await model.invoke([new HumanMessage("Hi")]).catch((e) => e);
    expect(failed).toMatchObject({ code: "upstream_error", details: { status: 500 } });
    const invalid = await model.invoke([new HumanMessage("Hi")]).catch((e) => e);
    expect(invalid).toMatchObject({ code: "upstream_error", details: { reason: "http_error", status: 400 } });
    expect(invalid.message).toMatch(/ValidationException: The provided model identifier is invalid/);
  });

  it("binds the keys to the region's Bedrock host when the credential names no base URL", async () => {
    const cred = credential({ baseURL: "" });
    expect(credentialHosts(cred)).toEqual(["bedrock-runtime.eu-west-1.amazonaws.com"]);
    // Anything but a region name in the template's place: no host at all, so nothing is sent.
    expect(credentialHosts(credential({ baseURL: "", region: "evil.example.com#" }))).toEqual([]);
  });
});
