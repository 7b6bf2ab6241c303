import http from "node:http";
import type { AddressInfo } from "node:net";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/common/errors";
import { createGuardedRequest } from "../../security/outbound";
import { OpenAIChat, type OpenAIChatFields } from "./openai-chat";

/** What one request to the test server gets back: a status, headers and body pieces written apart. */
interface Scripted {
  status?: number;
  contentType?: string;
  pieces: readonly (string | Buffer)[];
  /** Milliseconds between pieces. */
  gapMs?: number;
  /** Leave the response open after the pieces (a stalled model). */
  hang?: boolean;
}

const requests: { body: Record<string, unknown>; authorization?: string }[] = [];
let next: Scripted = { pieces: [] };
let server: http.Server;
let baseURL: string;
/** Connections the test server accepted so far. */
let connections = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      requests.push({
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
        authorization: req.headers.authorization,
      });
      const script = next;
      res.writeHead(script.status ?? 200, { "content-type": script.contentType ?? "application/json" });
      for (const piece of script.pieces) {
        res.write(piece);
        if (script.gapMs) await new Promise((r) => setTimeout(r, script.gapMs));
      }
      if (!script.hang) res.end();
    });
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function model(fields: Partial<OpenAIChatFields> = {}) {
  return new OpenAIChat({
    model: "m-1",
    apiKey: "sk-test",
    baseURL,
    timeoutMs: 5000,
    caller: { kind: "Chat model", node: { id: "n1", label: "Support bot" } },
    ...fields,
  });
}

const sse = (events: unknown[], done = true) =>
  events.map((e) => `data: ${JSON.stringify(e)}\n\n`).concat(done ? ["data: [DONE]\n\n"] : []);
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "chatcmpl-1",
  model: "m-1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

/** A callback handler that asks to stream (as a run streaming its answer does) and keeps the tokens. */
class Tokens extends BaseCallbackHandler {
  name = "tokens";
  lc_prefer_streaming = true;
  readonly seen: string[] = [];
  async handleLLMNewToken(token: string) {
    this.seen.push(token);
  }
}

describe("OpenAIChat (Chat Completions without the SDK)", () => {
  it("sends the messages and parameters ChatOpenAI sent, with the key, and reads a JSON answer", async () => {
    next = {
      pieces: [
        JSON.stringify({
          id: "chatcmpl-9",
          model: "m-1",
          choices: [{ index: 0, message: { role: "assistant", content: "Hello there" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
        }),
      ],
    };
    const reply = await model({ temperature: 0.2, maxTokens: 50, topP: 0.9, stop: ["END"] }).invoke([
      new SystemMessage("Be brief."),
      new HumanMessage({
        content: [
          { type: "text", text: "What is this?" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      }),
      new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "look", args: { q: "x" } }] }),
      new ToolMessage({ content: "found", tool_call_id: "call_1" }),
    ]);
    expect(reply.content).toBe("Hello there");
    expect(reply.usage_metadata).toEqual({ input_tokens: 7, output_tokens: 2, total_tokens: 9 });
    const sent = requests.at(-1)!;
    expect(sent.authorization).toBe("Bearer sk-test");
    expect(sent.body).toEqual({
      model: "m-1",
      temperature: 0.2,
      max_tokens: 50,
      top_p: 0.9,
      stop: ["END"],
      messages: [
        { role: "system", content: "Be brief." },
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          ],
        },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "look", arguments: '{"q":"x"}' } }],
        },
        { role: "tool", content: "found", tool_call_id: "call_1" },
      ],
    });
  });

  it("asks reasoning models for max_completion_tokens (they refuse max_tokens), as ChatOpenAI did", async () => {
    for (const [name, field] of [
      ["o3-mini", "max_completion_tokens"],
      ["gpt-5", "max_completion_tokens"],
      ["gpt-5-chat-latest", "max_tokens"],
      ["gpt-4o", "max_tokens"],
    ]) {
      next = { pieces: [JSON.stringify({ choices: [{ message: { role: "assistant", content: "ok" } }] })] };
      await model({ model: name, maxTokens: 99 }).invoke([new HumanMessage("x")]);
      const body = requests.at(-1)!.body;
      expect(body[field]).toBe(99);
      expect(Object.keys(body).filter((k) => k.startsWith("max_"))).toEqual([field]);
    }
  });

  it("binds tools in OpenAI's format and reads tool calls, keeping malformed arguments as invalid calls", async () => {
    const lookup = tool(async () => "", {
      name: "lookup",
      description: "Looks a product up",
      schema: z.object({ q: z.string() }),
    });
    next = {
      pieces: [
        JSON.stringify({
          id: "c",
          model: "m-1",
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  { id: "a", type: "function", function: { name: "lookup", arguments: '{"q":"lamp"}' } },
                  { id: "b", type: "function", function: { name: "lookup", arguments: "{not json" } },
                ],
              },
            },
          ],
        }),
      ],
    };
    const reply = await model()
      .bindTools([lookup], { tool_choice: "auto" })
      .invoke([new HumanMessage("find a lamp")]);
    expect(reply.tool_calls).toEqual([expect.objectContaining({ id: "a", name: "lookup", args: { q: "lamp" } })]);
    expect(reply.invalid_tool_calls).toEqual([expect.objectContaining({ id: "b", args: "{not json" })]);
    expect(requests.at(-1)!.body).toMatchObject({
      tool_choice: "auto",
      tools: [
        {
          type: "function",
          function: {
            name: "lookup",
            description: "Looks a product up",
            parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
          },
        },
      ],
    });
  });

  it("streams tokens to the callbacks as they arrive and answers with the whole message", async () => {
    const words = ["Grüße", " from", " the", " stream"];
    // One byte per write: events, lines and a UTF-8 character split across reads; CRLF line ends.
    const body = Buffer.from(
      `${sse([chunk({ role: "assistant", content: "" }), ...words.map((w) => chunk({ content: w })), chunk({}, "stop")])
        .join("")
        .replace(/\n/g, "\r\n")}: a comment\r\n`,
    );
    next = { contentType: "text/event-stream", pieces: [...body].map((b) => Buffer.from([b])) };
    const tokens = new Tokens();
    const reply = await model().invoke([new HumanMessage("hi")], { callbacks: [tokens] });
    expect(tokens.seen).toEqual(words);
    expect(reply.content).toBe(words.join(""));
    expect(reply.response_metadata).toMatchObject({ finish_reason: "stop", model_name: "m-1" });
    expect(requests.at(-1)!.body).toMatchObject({ stream: true });
  });

  it("hands each token to every handler with the model run's ids; a failing handler stops the call only if it raises", async () => {
    const stream = () => ({
      contentType: "text/event-stream",
      pieces: sse([chunk({ content: "a" }), chunk({ content: "b" }), chunk({}, "stop")]),
    });
    const starts: (string | undefined)[][] = [];
    const seen: (string | undefined)[][] = [];
    class Recording extends BaseCallbackHandler {
      name = "recording";
      lc_prefer_streaming = true;
      awaitHandlers = true;
      async handleChatModelStart(_l: unknown, _m: unknown, runId: string, parentRunId?: string) {
        starts.push([runId, parentRunId]);
      }
      async handleLLMNewToken(token: string, _i: unknown, runId: string, parentRunId?: string, tags?: string[]) {
        seen.push([token, runId, parentRunId, tags?.join()]);
      }
    }
    class Failing extends BaseCallbackHandler {
      name = "failing";
      awaitHandlers = true;
      constructor(readonly raises: boolean) {
        super({ raiseError: raises });
      }
      async handleLLMNewToken() {
        throw new Error("handler broke");
      }
    }
    next = stream();
    const reply = await model().invoke([new HumanMessage("x")], {
      callbacks: [new Failing(false), new Recording()],
      tags: ["t1"],
    });
    expect(reply.content).toBe("ab");
    const [[runId]] = starts;
    expect(seen).toEqual([
      ["a", runId, undefined, "t1"],
      ["b", runId, undefined, "t1"],
    ]);
    next = stream();
    await expect(
      model().invoke([new HumanMessage("x")], { callbacks: [new Failing(true), new Recording()] }),
    ).rejects.toThrow("handler broke");
  });

  it("joins streamed tool call deltas by index, also when the stream ends without [DONE]", async () => {
    next = {
      contentType: "text/event-stream",
      pieces: sse(
        [
          chunk({ role: "assistant", content: null }),
          chunk({
            tool_calls: [{ index: 0, id: "t0", type: "function", function: { name: "lookup", arguments: "" } }],
          }),
          chunk({ tool_calls: [{ index: 1, id: "t1", type: "function", function: { name: "calc", arguments: "" } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: '{"x":1}' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"desk"}' } }] }),
          chunk({}, "tool_calls"),
        ],
        false,
      ),
    };
    const tokens = new Tokens();
    const reply = await model().invoke([new HumanMessage("find a desk")], { callbacks: [tokens] });
    expect(tokens.seen).toEqual([]);
    expect(reply.tool_calls).toEqual([
      expect.objectContaining({ id: "t0", name: "lookup", args: { q: "desk" } }),
      expect.objectContaining({ id: "t1", name: "calc", args: { x: 1 } }),
    ]);
  });

  it("names the node and the provider's words for a 4xx, and keeps the status in the details", async () => {
    next = { status: 404, pieces: [JSON.stringify({ error: { message: "The model `m-1` does not exist" } })] };
    const err = await model()
      .invoke([new HumanMessage("x")])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: "upstream_error",
      message: `Chat model “Support bot” failed: the provider answered HTTP 404: The model \`m-1\` does not exist (${new URL(baseURL).host}).`,
      details: { node: { id: "n1", label: "Support bot" }, reason: "http_error", status: 404 },
    });
    next = { status: 429, contentType: "text/plain", pieces: ["slow down"] };
    await expect(model().invoke([new HumanMessage("x")])).rejects.toMatchObject({
      code: "upstream_error",
      message: expect.stringContaining("HTTP 429: slow down"),
    });
  });

  it("refuses answers that are not chat completions with a 502, streamed or not", async () => {
    const bad = async (script: Scripted, stream: boolean) => {
      next = script;
      return model()
        .invoke([new HumanMessage("x")], stream ? { callbacks: [new Tokens()] } : {})
        .catch((e: unknown) => e);
    };
    for (const [script, stream, why] of [
      [{ pieces: ["<html>oops</html>"] }, false, "not JSON"],
      [{ pieces: ["[1,2]"] }, false, "no choices"],
      [{ pieces: [JSON.stringify({ error: { message: "overloaded" } })] }, false, "overloaded"],
      [{ contentType: "text/event-stream", pieces: ["data: {broken\n\n"] }, true, "not JSON"],
      [{ contentType: "text/event-stream", pieces: [": only a comment\n\n"] }, true, "without a completion chunk"],
      [{ contentType: "text/event-stream", pieces: sse([{ error: { message: "boom" } }]) }, true, "boom"],
    ] as const) {
      const err = await bad(script, stream);
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: "upstream_error", message: expect.stringContaining(why) });
    }
  });

  it("stops at the caller's abort mid-stream with the caller's reason", async () => {
    next = {
      contentType: "text/event-stream",
      pieces: sse([chunk({ content: "one" }), chunk({ content: "two" })], false),
      gapMs: 50,
      hang: true,
    };
    const controller = new AbortController();
    const tokens = new Tokens();
    tokens.handleLLMNewToken = async (token: string) => {
      tokens.seen.push(token);
      controller.abort(new Error("the client left"));
    };
    const err = await model()
      .invoke([new HumanMessage("x")], { callbacks: [tokens], signal: controller.signal })
      .catch((e: unknown) => e);
    expect(tokens.seen).toEqual(["one"]);
    expect(err).not.toBeInstanceOf(AppError);
    expect(String(err)).toMatch(/abort|the client left/i);
  });

  it("without the guarded fetch: its backstop deadline is a 504, a refused connection a 503", async () => {
    next = { contentType: "text/event-stream", pieces: [], hang: true };
    await expect(model({ timeoutMs: 100 }).invoke([new HumanMessage("x")])).rejects.toMatchObject({
      code: "upstream_timeout",
      message: expect.stringContaining("did not answer in time"),
    });
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    await expect(
      model({ baseURL: `http://127.0.0.1:${port}/v1` }).invoke([new HumanMessage("x")]),
    ).rejects.toMatchObject({ code: "upstream_unavailable", details: { host: `127.0.0.1:${port}` } });
  });

  it("works the same through the model guard's own answer (what the nodes use), not only through fetch", async () => {
    const guarded = () => model({ request: createGuardedRequest({ allowPrivate: true }) });
    next = { pieces: [JSON.stringify({ choices: [{ message: { role: "assistant", content: "whole" } }] })] };
    expect((await guarded().invoke([new HumanMessage("x")])).content).toBe("whole");
    const body = Buffer.from(sse([chunk({ content: "Grüße" }), chunk({ content: " ok" }), chunk({}, "stop")]).join(""));
    next = { contentType: "text/event-stream", pieces: [...body].map((b) => Buffer.from([b])) };
    const tokens = new Tokens();
    expect((await guarded().invoke([new HumanMessage("x")], { callbacks: [tokens] })).content).toBe("Grüße ok");
    expect(tokens.seen).toEqual(["Grüße", " ok"]);
    next = { status: 400, pieces: [JSON.stringify({ error: { message: "bad model" } })] };
    await expect(guarded().invoke([new HumanMessage("x")])).rejects.toMatchObject({
      code: "upstream_error",
      details: { status: 400 },
      message: expect.stringContaining("HTTP 400: bad model"),
    });
  });

  it("streamed calls through the guard use one connection: the body is read out past [DONE]", async () => {
    const guarded = model({ request: createGuardedRequest({ allowPrivate: true }) });
    const pause = () => new Promise((r) => setTimeout(r, 100)); // the body's end is 2 ms after [DONE]
    next = { pieces: [JSON.stringify({ choices: [{ message: { role: "assistant", content: "first" } }] })] };
    await guarded.invoke([new HumanMessage("x")]); // a connection in the pool
    await pause();
    const before = connections;
    for (let i = 0; i < 3; i += 1) {
      // Each piece its own write: the chunked body's end comes after [DONE], as from a real server.
      next = {
        contentType: "text/event-stream",
        pieces: sse([chunk({ content: `turn ${i}` }), chunk({}, "stop")]),
        gapMs: 2,
      };
      expect((await guarded.invoke([new HumanMessage("x")], { callbacks: [new Tokens()] })).content).toBe(`turn ${i}`);
      await pause();
    }
    expect(connections - before).toBe(0); // closed at [DONE], each call would connect anew
  });

  it("uses the fetch it is given for every call", async () => {
    const seen: string[] = [];
    const guarded = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(String(input));
      return fetch(input, init);
    }) as typeof fetch;
    next = { pieces: [JSON.stringify({ choices: [{ message: { role: "assistant", content: "ok" } }] })] };
    await model({ fetch: guarded, baseURL: `${baseURL}/` }).invoke([new HumanMessage("x")]);
    expect(seen).toEqual([`${baseURL}/chat/completions`]);
  });
});
