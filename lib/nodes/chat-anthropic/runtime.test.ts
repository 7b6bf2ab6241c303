import http from "node:http";
import type { AddressInfo } from "node:net";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { ChatAnthropic } from "@langchain/anthropic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "../../flow/__fixtures__/graphs";
import { paramsSchemaFor } from "../params";
import { getDefinition } from "../registry";
import { resetEnvForTests } from "../../env";
import { createModelFetch } from "../../security/outbound-policy";
import { chatAnthropic } from ".";

// A tiny server speaking Anthropic's Messages API: JSON, or SSE events when `stream` is set.
const bodies: Record<string, unknown>[] = [];
const headers: http.IncomingHttpHeaders[] = [];
let server: http.Server;
let baseURL: string;

function sse(res: http.ServerResponse, model: string, words: string[]) {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", { message: { id: "msg_s", type: "message", role: "assistant", model, content: [], stop_reason: null, usage: { input_tokens: 4, output_tokens: 0 } } });
  send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
  for (const w of words) send("content_block_delta", { index: 0, delta: { type: "text_delta", text: w } });
  send("content_block_stop", { index: 0 });
  send("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: words.length } });
  send("message_stop", {});
  res.end();
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const body = JSON.parse(raw);
      bodies.push(body);
      headers.push(req.headers);
      if (req.url !== "/v1/messages") return res.writeHead(404).end();
      if (body.stream) return sse(res, body.model, ["Hello", " from", " Claude"]);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({
        id: "msg_1", type: "message", role: "assistant", model: body.model, stop_reason: "end_turn", stop_sequence: null,
        content: [{ type: "text", text: "Hello from Claude" }], usage: { input_tokens: 4, output_tokens: 3 },
      }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const build = async (credential: Record<string, string>) => {
  const params = paramsSchemaFor(getDefinition("chatAnthropic")!).parse({ credential: "a1", model: "claude-test", temperature: 0.2 });
  return (await chatAnthropic.runtime({ nodeId: "m", label: "Claude", params, inputs: {}, ctx: testContext({ a1: { name: "Claude key", type: "anthropic", data: credential } }) })) as ChatAnthropic;
};

describe("Anthropic chat model node", () => {
  it("sends the Messages API request with the credential's key, model, system prompt and limits", async () => {
    const model = await build({ apiKey: "sk-ant-test", baseURL });
    const reply = await model.invoke([new SystemMessage("Be brief."), new HumanMessage("Hi")]);
    expect(reply.content).toBe("Hello from Claude");
    expect(bodies.at(-1)).toMatchObject({ model: "claude-test", max_tokens: 2048, temperature: 0.2, system: "Be brief.", messages: [{ role: "user", content: "Hi" }] });
    expect(headers.at(-1)?.["x-api-key"]).toBe("sk-ant-test");
  });

  it("streams tokens", async () => {
    const model = await build({ apiKey: "sk-ant-test", baseURL });
    const pieces: string[] = [];
    for await (const chunk of await model.stream([new HumanMessage("Hi")])) if (typeof chunk.content === "string" && chunk.content) pieces.push(chunk.content);
    expect(pieces).toEqual(["Hello", " from", " Claude"]);
  });

  it("streams through the guarded model fetch, which keeps the key on the credential's host", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = new URL(baseURL).host;
    resetEnvForTests();
    const asked: { requester: string; allowedHosts?: string[] }[] = [];
    const ctx = {
      ...testContext({ a1: { name: "Claude key", type: "anthropic", data: { apiKey: "sk-ant-test", baseURL } } }),
      modelFetch: (opts: { requester: string; allowedHosts?: string[] }) => (asked.push(opts), createModelFetch(opts)),
    };
    const params = paramsSchemaFor(getDefinition("chatAnthropic")!).parse({ credential: "a1", model: "claude-test" });
    const model = (await chatAnthropic.runtime({ nodeId: "m", label: "Claude", params, inputs: {}, ctx })) as ChatAnthropic;
    const pieces: string[] = [];
    for await (const chunk of await model.stream([new HumanMessage("Hi")])) if (typeof chunk.content === "string" && chunk.content) pieces.push(chunk.content);
    expect(pieces).toEqual(["Hello", " from", " Claude"]);
    expect(asked).toEqual([{ requester: "Claude (node m)", allowedHosts: [new URL(baseURL).host] }]);
  });

  it("refuses a credential without a base URL anywhere but api.anthropic.com (it has no base URL param to move it)", async () => {
    const cred = { name: "Claude key", type: "anthropic", data: { apiKey: "sk-ant-test" } };
    const { assertCredentialHost } = await import("../../security/credential-hosts");
    expect(() => assertCredentialHost(cred, baseURL, "Claude")).toThrow(/credential "Claude key" may only be sent to api.anthropic.com/);
  });

  it("refuses to build without an API key in the credential", async () => {
    await expect(build({ baseURL })).rejects.toMatchObject({ code: "not_configured" });
  });
});
