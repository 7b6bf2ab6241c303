import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auth } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { serveRoutes } from "../../dev/route-server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow, updateChatflow } from "../../lib/services/chatflows";
import { createApiKey } from "../../lib/services/api-keys";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { readEventStream, type StreamEvent } from "@/browser/client/prediction-stream";
import { predictionEventSchema, type ToolStart, type UsedTool } from "@/common/schemas/prediction-stream";
import { ChatController } from "../../widget/chat";
import { SessionStore } from "../../widget/store";

// Live tool progress: a `toolStart` event goes out while the product API call is still in flight,
// i.e. before its result (usedTools) and before the tokens of the answer written from it.

let stub: ModelStub;
let productApi: ProductApi;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let key: string;
let agentId: string;

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const agent = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  agentId = (await createChatflow({ name: "agent", graph: agent.graph as never }, systemCaller)).id;
  key = (await createApiKey({ name: "k", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
  server = await serveRoutes([
    { method: "POST", pattern: /^\/api\/v1\/prediction\/(?<id>[^/]+)$/, handler: prediction.POST as never },
  ]);
});
afterAll(() => Promise.all([stub.close(), productApi.close(), server.close()]));

const post = (body: object) =>
  fetch(`${server.url}/api/v1/prediction/${agentId}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth.bearer(key) },
    body: JSON.stringify(body),
  });

describe("toolStart", () => {
  it("arrives while the product API is held, before usedTools and the answer's tokens, naming the tool and its input", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const requestsBefore = productApi.requests.length;
    productApi.setGate(() => held);
    // Without a toolStart nothing would open the gate: open it late so the test fails on its assertions.
    const fallback = setTimeout(() => release(), 10_000);
    try {
      const res = await post({ question: "find me a laptop under 1500 in Germany", streaming: true });
      expect(res.status).toBe(200);
      const events: StreamEvent[] = [];
      /** What had arrived when the toolStart came (the API reply still held). */
      let seenAtStart: string[] | undefined;
      await readEventStream(res.body!, (e) => {
        events.push(e);
        if (e.event === "toolStart" && !seenAtStart) {
          seenAtStart = events.map((x) => x.event);
          // The API call is in flight: it cannot have answered, the gate is closed.
          release();
        }
      });
      expect(seenAtStart, "a toolStart event arrived").toBeDefined();
      expect(seenAtStart).not.toContain("usedTools");
      expect(productApi.requests.length).toBeGreaterThan(requestsBefore);

      for (const e of events) expect(predictionEventSchema.parse(e)).toEqual(e);
      const names = events.map((e) => e.event);
      const start = names.indexOf("toolStart");
      expect(names[0]).toBe("start");
      expect(names.indexOf("usedTools")).toBeGreaterThan(start);
      expect(names.lastIndexOf("token")).toBeGreaterThan(start);
      expect(names.at(-1)).toBe("end");

      // The same calls, in the same order, as usedTools reports afterwards.
      const starts = events.filter((e) => e.event === "toolStart").map((e) => e.data as ToolStart);
      const used = events.find((e) => e.event === "usedTools")!.data as UsedTool[];
      expect(starts.map((s) => s.tool)).toEqual(used.map((u) => u.tool));
      expect(starts.map((s) => s.input)).toEqual(used.map((u) => u.toolInput));
      expect(starts[0].tool).toBe("product_search");
      expect(new Set(starts.map((s) => s.runId)).size).toBe(starts.length);
    } finally {
      clearTimeout(fallback);
      productApi.setGate(undefined);
      release();
    }
  });

  it("is not part of a JSON answer", async () => {
    const res = await post({ question: "find me a laptop under 1500 in Germany" });
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(json.usedTools?.[0]?.tool).toBe("product_search");
    expect(JSON.stringify(json)).not.toContain("toolStart");
  });
});

describe("the widget's chat controller, against the real route (public chatflow, no key)", () => {
  it("shows a running step while the tool runs, replaced by the finished call; nothing of it is kept", async () => {
    vi.stubGlobal("window", { isSecureContext: true });
    // Visitors see tool calls only when the chatbot settings show them (off by default: chatbot-settings.test.ts).
    await updateChatflow(agentId, { isPublic: true, chatbotConfig: { showToolCalls: true } }, systemCaller);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    productApi.setGate(() => held);
    const fallback = setTimeout(() => release(), 10_000);
    /** The bot message's running steps and finished calls at each change. */
    const seen: { running: string[]; used: string[]; text: string }[] = [];
    const saved: string[] = [];
    const storage = {
      getItem: () => null,
      setItem: (_k: string, v: string) => void saved.push(v),
    } as unknown as Storage;
    try {
      const chat: ChatController = new ChatController({
        apiHost: server.url,
        chatflowId: agentId,
        store: new SessionStore(agentId, storage),
        onChange: () => {
          const bot = chat.session.messages.at(-1);
          if (bot?.role !== "bot") return;
          seen.push({
            running: (bot.runningTools ?? []).map((s) => s.tool),
            used: (bot.usedTools ?? []).map((t) => t.tool),
            text: bot.text,
          });
          if (bot.runningTools?.length) release();
        },
      });
      await chat.send("find me a laptop under 1500 in Germany");
      const bot = chat.session.messages.at(-1)!;
      expect(bot.error).toBeUndefined();
      const firstRunning = seen.findIndex((s) => s.running.length > 0);
      expect(firstRunning, JSON.stringify(seen)).toBeGreaterThanOrEqual(0);
      expect(seen[firstRunning]).toMatchObject({ running: ["product_search"], used: [] });
      const done = seen.findIndex((s) => s.used.length > 0);
      expect(done).toBeGreaterThan(firstRunning);
      expect(seen[done].running).toEqual([]);
      expect(bot.usedTools?.map((t) => t.tool)).toEqual(["product_search"]);
      expect(bot.runningTools).toBeUndefined();
      expect(bot.text).toMatch(/Laptop/);
      expect(saved.at(-1)).not.toContain("runningTools");
    } finally {
      clearTimeout(fallback);
      productApi.setGate(undefined);
      release();
      vi.unstubAllGlobals();
    }
  });
});
