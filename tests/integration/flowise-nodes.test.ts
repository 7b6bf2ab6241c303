// The node types Flowise users bring (issue 13), run through the real prediction route: an agent on
// an Ollama chat model (the OpenAI-wire model stub standing in for Ollama's /v1) using the Calculator.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { systemCaller } from "../../dev/callers";
import { textOf, type Brain } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { edge, node } from "../../lib/flow/__fixtures__/graphs";
import type { Graph } from "@/common/schemas/graph";
import { createChatflow } from "../../lib/services/chatflows";
import { call } from "../support/http";

let stub: ModelStub;
let api: http.Server;
let apiOrigin: string;
const apiHits: string[] = [];
beforeAll(async () => {
  stub = await createModelStub();
  api = http.createServer((req, res) => {
    apiHits.push(`${req.method} ${req.url ?? ""}`);
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      if (req.method === "POST") res.end(JSON.stringify({ booked: JSON.parse(body) }));
      else
        res.end(
          JSON.stringify({ city: new URL(req.url ?? "/", "http://x").searchParams.get("city"), forecast: "sunny" }),
        );
    });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  apiOrigin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  // Nothing of the server's OpenAI settings may be needed by an Ollama flow.
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
  process.env.OPENAI_MODEL = "unused-model";
  resetEnvForTests();
});
afterAll(async () => {
  await stub.close();
  await new Promise((resolve) => api.close(resolve));
});

async function agentFlow(
  ollama: Record<string, unknown>,
  tools: { type: string; inputs?: Record<string, unknown> }[] = [{ type: "calculator" }],
): Promise<string> {
  const graph = {
    nodes: [
      node("model", "chatOllama", { model: "llama3.2", temperature: 0, ...ollama }, "Local Llama"),
      ...tools.map((t, i) => node(`tool${i}`, t.type, t.inputs ?? {})),
      node("agent", "toolAgent"),
    ],
    edges: [
      edge("model", "chatModel", "agent", "model"),
      ...tools.map((_, i) => edge(`tool${i}`, "tool", "agent", "tools")),
    ],
  } as Graph;
  // Anonymous callers (as here) see the tool calls only where the builder shows them.
  return (
    await createChatflow(
      { name: "ollama agent", graph: graph as never, isPublic: true, chatbotConfig: { showToolCalls: true } },
      systemCaller,
    )
  ).id;
}

const predict = (id: string, question: string) =>
  call(prediction.POST, { method: "POST", params: { id }, body: { question } });

/** Calls the calculator with each expression in turn, then answers with the last observation. */
function calculatingBrain(expressions: string[]): Brain {
  const queue = [...expressions];
  return ({ messages }) => {
    const last = messages.at(-1);
    const observation = last?.role === "tool" ? textOf(last.content) : "";
    const next = queue.shift();
    if (next !== undefined) return { toolCalls: [{ name: "calculator", arguments: { expression: next } }] };
    return { content: `The total is ${observation}.` };
  };
}

describe("Flowise node types through the prediction route", () => {
  it("an agent on an Ollama model computes with the Calculator tool", async () => {
    stub.requests.length = 0;
    stub.setBrain(calculatingBrain(["(1200 * 0.19) + 15"]));
    const res = await predict(await agentFlow({ baseUrl: stub.origin }), "What is 19% VAT on 1200 plus 15 shipping?");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("The total is 243.");
    expect(res.json.usedTools).toEqual([
      expect.objectContaining({
        tool: "calculator",
        toolInput: { expression: "(1200 * 0.19) + 15" },
        toolOutput: "243",
      }),
    ]);
    const first = stub.requests[0];
    expect(first.path).toBe("/v1/chat/completions");
    expect(first.body).toMatchObject({
      model: "llama3.2",
      temperature: 0,
      tools: [{ function: { name: "calculator" } }],
    });
  });

  it("a bad expression reaches the agent as a readable error it can correct, not a failed run", async () => {
    stub.setBrain(calculatingBrain(["2 +* 3", "2 * 3"]));
    const res = await predict(await agentFlow({ baseUrl: `${stub.origin}/v1` }), "2 times 3?");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("The total is 6.");
    expect(res.json.usedTools.map((t: { toolOutput: string }) => t.toolOutput)).toEqual([
      expect.stringMatching(/^Error: Unexpected "\*" at position 4/),
      "6",
    ]);
  });

  it("the outbound guard applies to the Ollama base URL: a private server needs the operator's allowance", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "false";
    process.env.OUTBOUND_ALLOW_HOSTS = "";
    resetEnvForTests();
    try {
      stub.requests.length = 0;
      stub.setBrain(calculatingBrain([]));
      const res = await predict(await agentFlow({ baseUrl: stub.origin }), "hello");
      expect(res.status).toBe(403);
      expect(res.json.error.message).toContain("Local Llama");
      expect(res.json.error.message).toContain(`127.0.0.1:${stub.port}`);
      expect(res.json.error.message).toContain("OUTBOUND_ALLOW_HOSTS");
      expect(stub.requests).toEqual([]);
    } finally {
      process.env.OUTBOUND_ALLOW_PRIVATE = "true";
      resetEnvForTests();
    }
  });

  it("Requests Get and Current Date and Time answer an agent; Requests Get stays behind the outbound guard", async () => {
    /** Calls the weather tool, then the clock, then answers with both observations. */
    const brain: Brain = ({ messages }) => {
      const observations = messages.filter((m) => m.role === "tool").map((m) => textOf(m.content));
      if (observations.length === 0)
        return { toolCalls: [{ name: "weather", arguments: { queryParams: { city: "Oslo" } } }] };
      if (observations.length === 1) return { toolCalls: [{ name: "current_date_time", arguments: {} }] };
      return { content: observations.join(" | ") };
    };
    const tools = [
      { type: "requestsGet", inputs: { url: `${apiOrigin}/forecast`, name: "weather" } },
      { type: "currentDateTime", inputs: { timezone: "UTC" } },
    ];
    stub.setBrain(brain);
    const id = await agentFlow({ baseUrl: stub.origin }, tools);
    const res = await predict(id, "Weather in Oslo today?");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const [weather, clock] = res.json.text.split(" | ");
    expect(JSON.parse(weather)).toEqual({ city: "Oslo", forecast: "sunny" });
    expect(JSON.parse(clock)).toMatchObject({ timezone: "UTC", timezoneOffset: "+00:00" });
    expect(apiHits).toEqual(["GET /forecast?city=Oslo"]);

    // The model server is allowed by name, the weather API is not: the tool call is refused (an
    // observation naming the setting), and the API never sees a request.
    process.env.OUTBOUND_ALLOW_PRIVATE = "false";
    process.env.OUTBOUND_ALLOW_HOSTS = `127.0.0.1:${stub.port}`;
    resetEnvForTests();
    try {
      stub.setBrain(brain);
      const refused = await predict(await agentFlow({ baseUrl: stub.origin }, tools), "Weather in Oslo today?");
      expect(refused.status, JSON.stringify(refused.json)).toBe(200);
      expect(refused.json.usedTools[0].toolOutput).toMatch(/^Tool error: .*OUTBOUND_ALLOW_HOSTS/);
      expect(apiHits).toHaveLength(1);
    } finally {
      process.env.OUTBOUND_ALLOW_PRIVATE = "true";
      process.env.OUTBOUND_ALLOW_HOSTS = "";
      resetEnvForTests();
    }
  });

  it("an In-Memory Vector Store answers from its documents with no upsert, embedding them once per built flow", async () => {
    const graph = {
      nodes: [
        node("text", "plainTextLoader", {
          text: "Refunds are paid within 14 days to the original card.\n\nShipping is free above 50 euros.",
          sourceName: "policy.txt",
        }),
        node("splitter", "recursiveTextSplitter", { chunkSize: 60, chunkOverlap: 0 }),
        node("embeddings", "openAIEmbeddings", { baseURL: stub.url }),
        node("store", "memoryVectorStore", { topK: 1 }),
        node("model", "chatOllama", { baseUrl: stub.origin, model: "llama3.2" }),
        node("qa", "conversationalRetrievalQAChain"),
      ],
      edges: [
        edge("splitter", "textSplitter", "text", "textSplitter"),
        edge("text", "document", "store", "document"),
        edge("embeddings", "embeddings", "store", "embeddings"),
        edge("store", "retriever", "qa", "retriever"),
        edge("model", "chatModel", "qa", "model"),
      ],
    } as Graph;
    const id = (await createChatflow({ name: "memory store", graph: graph as never, isPublic: true }, systemCaller)).id;
    stub.requests.length = 0;
    stub.setBrain(({ messages }) => {
      const system = textOf(messages.find((m) => m.role === "system")?.content);
      return { content: /paid within (\d+) days/.exec(system)?.[0] ?? "I don't know." };
    });
    const ask = (question: string) =>
      call(prediction.POST, {
        method: "POST",
        params: { id },
        body: { question, overrideConfig: { returnSourceDocuments: true } },
      });
    const res = await ask("How fast are refunds paid?");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("paid within 14 days");
    expect(res.json.sourceDocuments).toEqual([
      expect.objectContaining({
        pageContent: expect.stringContaining("Refunds are paid"),
        metadata: expect.objectContaining({ source: "policy.txt" }),
      }),
    ]);
    const documentEmbeddings = () =>
      stub.requests.filter(
        (r) =>
          r.path === "/v1/embeddings" &&
          Array.isArray((r.body as { input?: unknown }).input) &&
          (r.body as { input: unknown[] }).input.length > 1,
      ).length;
    expect(documentEmbeddings()).toBe(1);
    // The built flow is cached: a second question embeds only the query, not the documents again.
    expect((await ask("How fast are refunds paid?")).status).toBe(200);
    expect(documentEmbeddings()).toBe(1);
  });

  it("Requests Post sends the agent's body with the builder's fixed fields to the one URL", async () => {
    apiHits.length = 0;
    stub.setBrain(({ messages }) => {
      const last = messages.at(-1);
      if (last?.role !== "tool")
        return { toolCalls: [{ name: "book_table", arguments: { body: { people: 4, restaurant: "other" } } }] };
      return { content: `Done: ${textOf(last.content)}` };
    });
    const tools = [
      {
        type: "requestsPost",
        inputs: { url: `${apiOrigin}/bookings`, name: "book_table", body: { restaurant: "Nordic" } },
      },
    ];
    const res = await predict(await agentFlow({ baseUrl: stub.origin }, tools), "Book a table for 4");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe(`Done: ${JSON.stringify({ booked: { people: 4, restaurant: "Nordic" } })}`);
    expect(apiHits).toEqual(["POST /bookings"]);
  });
});
