import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import { getEnv, resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { auth } from "../support/http";
import { parseSse } from "../../dev/route-server";
import { spawnWorker } from "./support";

// One streamed prediction of the tool-using product-search agent in each mode: queue mode (tokens
// relayed live from a worker, tool events and metadata with the result) must send the client the
// same SSE events in the same order as embedded mode, with the same tool calls and metadata.

let stub: ModelStub;
let productApi: ProductApi;
let agentId: string;
let key: string;

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const agent = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  agentId = (await createChatflow({ name: "agent", graph: agent.graph as never }, systemCaller)).id;
  key = (await createApiKey({ name: "k", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(async () => {
  process.env.MODE = "queue";
  resetEnvForTests();
  await Promise.all([stub.close(), productApi.close()]);
});

async function streamOnce(mode: "embedded" | "queue", chatId: string) {
  process.env.MODE = mode;
  resetEnvForTests();
  expect(getEnv().MODE).toBe(mode);
  const res = await prediction.POST(
    new Request(`http://127.0.0.1:3000/api/v1/prediction/${agentId}`, {
      method: "POST",
      headers: { ...auth.bearer(key), "content-type": "application/json" },
      body: JSON.stringify({ question: "find me a laptop under 1500 in Germany", streaming: true, chatId }),
    }),
    { params: Promise.resolve({ id: agentId }) },
  );
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  return parseSse(await res.text());
}

/** Metadata without what differs per request by design (ids of this chat and its messages). */
function stableMetadata(events: { event: string; data: unknown }[]) {
  const meta = events.find((e) => e.event === "metadata")?.data as Record<string, unknown> | undefined;
  expect(meta).toBeDefined();
  const { chatId, chatMessageId, sessionId, ...rest } = meta!;
  expect(typeof chatMessageId).toBe("string");
  return { keys: Object.keys(meta!).sort(), rest };
}

describe("SSE of a tool-using flow, embedded vs queue mode", () => {
  it("sends the same events in the same order, with the same tool calls and final metadata", async () => {
    const embedded = await streamOnce("embedded", "parity-embedded");
    process.env.MODE = "queue";
    resetEnvForTests();
    await spawnWorker();
    const queued = await streamOnce("queue", "parity-queue");

    const names = (events: { event: string }[]) => events.map((e) => e.event);
    // The embedded order is the reference; it uses the tool, so the comparison covers tool events.
    expect(names(embedded)).toContain("usedTools");
    expect(names(queued)).toEqual(names(embedded));
    const data = (events: { event: string; data: unknown }[], name: string) =>
      events.filter((e) => e.event === name).map((e) => e.data);
    // The same calls and requests; a request's time differs run to run.
    const untimed = (events: { event: string; data: unknown }[]) =>
      JSON.parse(JSON.stringify(data(events, "usedTools")), (k, v) => (k === "ms" ? 0 : v));
    expect(untimed(queued)).toEqual(untimed(embedded));
    expect(data(queued, "sourceDocuments")).toEqual(data(embedded, "sourceDocuments"));
    expect(data(queued, "token").join("")).toBe(data(embedded, "token").join(""));
    expect(stableMetadata(queued)).toEqual(stableMetadata(embedded));
  });
});
