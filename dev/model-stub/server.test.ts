import { AIMessage, type AIMessageChunk, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { cosine } from "./embeddings";
import { createModelStub, demoBrain, type ModelStub, scriptedBrain } from "./server";

let stub: ModelStub;
beforeAll(async () => {
  stub = await createModelStub();
});
afterAll(() => stub.close());
beforeEach(() => stub.setBrain(demoBrain));

const chat = () =>
  new ChatOpenAI({
    model: "stub-model",
    apiKey: "test",
    streaming: false,
    maxRetries: 0,
    configuration: { baseURL: stub.url },
  });
// `streaming: false` also sets LangChain's disableStreaming, so .stream() then yields one whole
// chunk. Leaving `streaming` unset keeps invoke() non-streaming and lets .stream() use SSE.
const streamingChat = () =>
  new ChatOpenAI({ model: "stub-model", apiKey: "test", maxRetries: 0, configuration: { baseURL: stub.url } });
const client = () => new OpenAI({ apiKey: "test", baseURL: stub.url, maxRetries: 0 });

const searchTool = {
  name: "product_search",
  description: "Search the product catalog",
  schema: z.object({ query: z.string(), max_price: z.number().optional() }),
};

describe("chat completions through the real SDKs", () => {
  it("gives every completion a unique id, a model, a created time and usage", async () => {
    const openai = client();
    const replies = await Promise.all(
      [1, 2, 3].map(() =>
        openai.chat.completions.create({ model: "m-1", messages: [{ role: "user", content: "hello" }] }),
      ),
    );
    expect(new Set(replies.map((r) => r.id)).size).toBe(3);
    for (const r of replies) {
      expect(r.model).toBe("m-1");
      expect(r.created).toBeGreaterThan(1_600_000_000);
      expect(r.usage?.total_tokens).toBeGreaterThan(0);
      expect(r.choices[0].message.content).toMatch(/^Hello!/);
    }
  });

  it("returns scripted text to ChatOpenAI.invoke() and records the request", async () => {
    stub.setBrain(scriptedBrain([{ content: "first" }, { content: "second" }]));
    const model = chat();
    expect((await model.invoke("a")).content).toBe("first");
    expect((await model.invoke("b")).content).toBe("second");
    const last = stub.requests.at(-1)?.body as { messages: { content: string }[] };
    expect(last.messages.at(-1)?.content).toBe("b");
  });

  it("returns tool calls that ChatOpenAI parses into tool_calls", async () => {
    stub.setBrain(
      scriptedBrain([{ toolCalls: [{ name: "product_search", arguments: { query: "laptop", max_price: 1500 } }] }]),
    );
    const reply = await chat().bindTools([searchTool]).invoke("find me a laptop");
    expect(reply.tool_calls).toEqual([
      {
        name: "product_search",
        args: { query: "laptop", max_price: 1500 },
        id: expect.stringMatching(/^call_/),
        type: "tool_call",
      },
    ]);
    const sent = stub.requests.at(-1)?.body as { tools: { function: { name: string } }[] };
    expect(sent.tools.map((t) => t.function.name)).toEqual(["product_search"]);
  });

  it("streams text chunks that reassemble into the full reply", async () => {
    const text = "Streaming works, one word at a time.";
    stub.setBrain(scriptedBrain([{ content: text }]));
    const pieces: string[] = [];
    let full: AIMessageChunk | undefined;
    for await (const chunk of await streamingChat().stream("go")) {
      pieces.push(String(chunk.content));
      full = full ? full.concat(chunk) : chunk;
    }
    expect(pieces.filter(Boolean).length).toBeGreaterThan(3);
    expect(full?.content).toBe(text);
    expect(full?.usage_metadata?.total_tokens).toBeGreaterThan(0);
  });

  it("streams tool-call deltas that reassemble into parsed tool calls", async () => {
    stub.setBrain(
      scriptedBrain([
        {
          toolCalls: [
            { name: "product_search", arguments: { query: "running shoe with a long name", max_price: 200 } },
          ],
        },
      ]),
    );
    let full: AIMessageChunk | undefined;
    let chunks = 0;
    for await (const chunk of await streamingChat().bindTools([searchTool]).stream("shoes")) {
      chunks += 1;
      full = full ? full.concat(chunk) : chunk;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(full?.tool_calls).toEqual([
      {
        name: "product_search",
        args: { query: "running shoe with a long name", max_price: 200 },
        id: expect.stringMatching(/^call_/),
        type: "tool_call",
      },
    ]);
  });

  it("still answers .stream() of a streaming:false model, in one chunk", async () => {
    stub.setBrain(scriptedBrain([{ content: "whole reply" }]));
    const chunks: string[] = [];
    for await (const chunk of await chat().stream("go")) chunks.push(String(chunk.content));
    expect(chunks).toEqual(["whole reply"]);
    const body = stub.requests.at(-1)?.body as { stream?: boolean } | undefined;
    expect(body).toBeDefined();
    expect(body?.stream).toBeFalsy();
  });

  it("streams over raw SSE with one id per completion and a final [DONE]", async () => {
    const stream = await client().chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hello there" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const ids = new Set<string>();
    let text = "";
    let usage: unknown;
    for await (const chunk of stream) {
      ids.add(chunk.id);
      text += chunk.choices[0]?.delta.content ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(ids.size).toBe(1);
    expect(text).toMatch(/^Hello!/);
    expect(usage).toMatchObject({ total_tokens: expect.any(Number) });
  });

  it("answers a brain error with an OpenAI error the SDK raises", async () => {
    stub.setBrain(scriptedBrain([{ error: { status: 429, message: "slow down" } }]));
    await expect(
      client().chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] }),
    ).rejects.toMatchObject({ status: 429 });
  });
});

describe("demo brain over HTTP", () => {
  it("calls a product tool, then summarises the tool result", async () => {
    const model = chat().bindTools([
      { ...searchTool, name: "productsUsingGET", schema: z.object({ countryCode: z.string(), q: z.string() }) },
    ]);
    const call = await model.invoke([new HumanMessage("Find me laptops under 1500 in Germany")]);
    expect(call.tool_calls?.[0]).toMatchObject({
      name: "productsUsingGET",
      args: { countryCode: "DE", q: "laptop", max_price: 1500 },
    });
    const result = JSON.stringify({ products: [{ name: "Northwind Air 13 Laptop", price: "918.99 EUR" }] });
    const answer = await model.invoke([
      new HumanMessage("Find me laptops under 1500 in Germany"),
      new AIMessage({ content: "", tool_calls: call.tool_calls }),
      new ToolMessage({ content: result, tool_call_id: call.tool_calls![0].id! }),
    ]);
    expect(answer.content).toBe("I found 1 product: Northwind Air 13 Laptop (918.99 EUR).");
  });
});

describe("embeddings", () => {
  it("decodes base64 vectors through OpenAIEmbeddings and keeps similar texts near", async () => {
    const embeddings = new OpenAIEmbeddings({
      model: "stub-embedding",
      apiKey: "test",
      maxRetries: 0,
      configuration: { baseURL: stub.url },
    });
    const [laptop, laptops, banana] = await embeddings.embedDocuments([
      "cheap laptop for students",
      "cheap laptops for students",
      "banana bread recipe",
    ]);
    expect(laptop).toHaveLength(64);
    expect(cosine(laptop, laptops)).toBeGreaterThan(0.9);
    expect(cosine(laptop, banana)).toBeLessThan(cosine(laptop, laptops));
    const sent = stub.requests.at(-1)?.body as { encoding_format?: string };
    expect(sent.encoding_format).toBe("base64");
    expect(await embeddings.embedQuery("cheap laptop for students")).toEqual(laptop);
  });

  it("answers float arrays when asked for floats, with the requested dimensions", async () => {
    const res = await fetch(`${stub.url}/embeddings`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "e", input: ["a b c"], encoding_format: "float", dimensions: 16 }),
    });
    const body = (await res.json()) as { data: { embedding: number[] }[] };
    expect(body.data[0].embedding).toHaveLength(16);
    expect(Math.hypot(...body.data[0].embedding)).toBeCloseTo(1, 5);
  });
});

describe("transcriptions and models", () => {
  it("transcribes an uploaded file with the configured transcript", async () => {
    const file = await toFile(Buffer.from("RIFF....WAVEfmt fake audio"), "question.wav", { type: "audio/wav" });
    const first = await client().audio.transcriptions.create({ file, model: "whisper-1" });
    expect(first.text).toBe("find me a laptop under 1500 in Germany");
    expect(stub.requests.at(-1)?.body).toMatchObject({
      model: "whisper-1",
      file: { name: "question.wav", type: "audio/wav" },
    });
    stub.setTranscript("hallo");
    const second = await client().audio.transcriptions.create({
      file: await toFile(Buffer.from("x"), "a.webm"),
      model: "whisper-1",
    });
    expect(second.text).toBe("hallo");
  });

  it("lists models", async () => {
    const ids: string[] = [];
    for await (const m of client().models.list()) ids.push(m.id);
    expect(ids).toContain("stub-model");
  });

  it("rejects a wrong API key when one is configured", async () => {
    const locked = await createModelStub({ apiKey: "right" });
    try {
      const wrong = new OpenAI({ apiKey: "wrong", baseURL: locked.url, maxRetries: 0 });
      await expect(wrong.models.list()).rejects.toMatchObject({ status: 401 });
    } finally {
      await locked.close();
    }
  });
});

describe("admin endpoints for tests in other processes", () => {
  it("scripts replies, lists recorded requests, sets the transcript and resets", async () => {
    const admin = (path: string, body?: unknown) =>
      fetch(`${stub.url.replace(/\/v1$/, "")}/__admin/${path}`, {
        method: body === undefined ? "GET" : "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    await admin("script", [{ content: "scripted over HTTP" }]);
    expect((await chat().invoke("hi")).content).toBe("scripted over HTTP");
    const { requests } = (await (await admin("requests")).json()) as { requests: { path: string }[] };
    expect(requests.at(-1)?.path).toBe("/v1/chat/completions");
    await admin("transcript", { text: "über alles" });
    const file = await toFile(Buffer.from("x"), "a.wav");
    expect((await client().audio.transcriptions.create({ file, model: "whisper-1" })).text).toBe("über alles");
    await admin("reset", {});
    expect(stub.requests).toHaveLength(0);
    expect((await chat().invoke("hello")).content).toMatch(/^Hello!/);
  });
});

describe("latency (a network-bound model for benchmarks)", () => {
  /** Milliseconds until the response headers (the first byte) of a raw call arrive. */
  const firstByte = async (url: string, path: string, body: object) => {
    const start = performance.now();
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const ms = performance.now() - start;
    await res.text();
    return { ms, status: res.status };
  };
  const chatBody = { model: "stub-model", messages: [{ role: "user", content: "hi" }] };

  it("holds back the first byte of chat (JSON and SSE) and embeddings answers by latencyMs", async () => {
    const slow = await createModelStub({ latencyMs: 120 });
    try {
      // Node may fire a timer up to 1 ms early; nothing else here can make the answer come sooner.
      for (const [path, body] of [
        ["/chat/completions", chatBody],
        ["/chat/completions", { ...chatBody, stream: true }],
        ["/embeddings", { model: "stub-embedding", input: "hello" }],
      ] as const) {
        const { ms, status } = await firstByte(slow.url, path, body);
        expect(status).toBe(200);
        expect(ms, path).toBeGreaterThanOrEqual(118);
      }
      // The answer itself is unchanged.
      const openai = new OpenAI({ apiKey: "test", baseURL: slow.url, maxRetries: 0 });
      const reply = await openai.chat.completions.create({
        model: "m",
        messages: [{ role: "user", content: "hello" }],
      });
      expect(reply.choices[0].message.content).toMatch(/^Hello!/);
    } finally {
      await slow.close();
    }
  });

  it("waits on a timer, so calls overlap: all are in before any answers", async () => {
    const slow = await createModelStub({ latencyMs: 30_000 });
    const abort = new AbortController();
    let answered = 0;
    try {
      const calls = [1, 2, 3].map(() =>
        fetch(`${slow.url}/chat/completions`, {
          method: "POST",
          body: JSON.stringify(chatBody),
          signal: abort.signal,
        }).then(
          () => answered++,
          () => {},
        ),
      );
      const deadline = Date.now() + 10_000;
      while (slow.requests.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(slow.requests).toHaveLength(3);
      expect(answered).toBe(0);
      abort.abort();
      await Promise.all(calls);
    } finally {
      await slow.close();
    }
  });

  it("setLatency changes it for later calls; a negative or non-number latency is refused", async () => {
    const slow = await createModelStub();
    try {
      slow.setLatency(150);
      expect((await firstByte(slow.url, "/chat/completions", chatBody)).ms).toBeGreaterThanOrEqual(148);
      expect(() => slow.setLatency(-1)).toThrow(RangeError);
      await expect(createModelStub({ latencyMs: Number.NaN })).rejects.toThrow(RangeError);
    } finally {
      await slow.close();
    }
  });
});
