import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { exampleFlow } from "../../dev/flows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import { resetEnvForTests } from "../../lib/env";
import { readEventStream, type StreamEvent } from "@/browser/client/prediction-stream";
import type { ToolStart, UsedTool } from "@/common/schemas/prediction-stream";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { auth } from "../support/http";
import { killWorkers, spawnWorker, type SpawnedWorker } from "./support";

// Queue mode: the product-search agent runs on a spawned worker; its toolStart travels back through
// Redis like the tokens, and the API relays it while the product API call is still held.

let stub: ModelStub;
let productApi: ProductApi;
let agentId: string;
let key: string;
let worker: SpawnedWorker;

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const agent = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  agentId = (await createChatflow({ name: "agent", graph: agent.graph as never }, systemCaller)).id;
  key = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
  worker = await spawnWorker();
});
afterAll(async () => {
  await killWorkers();
  await Promise.all([stub.close(), productApi.close()]);
});

const predict = (body: object) =>
  prediction.POST(
    new Request(`http://127.0.0.1:3000/api/v1/prediction/${agentId}`, {
      method: "POST",
      headers: { ...auth.bearer(key), "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: agentId }) },
  );

describe("toolStart through a worker", () => {
  it("is relayed while the product API is held, before usedTools and the answer's last tokens", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    productApi.setGate(() => held);
    // Without a relayed toolStart nothing would open the gate: open it late so the assertions fail.
    const fallback = setTimeout(() => release(), 20_000);
    try {
      const res = await predict({ question: "find me a laptop under 1500 in Germany", streaming: true });
      expect(res.status).toBe(200);
      const events: StreamEvent[] = [];
      let seenAtStart: string[] | undefined;
      await readEventStream(res.body!, (e) => {
        events.push(e);
        if (e.event === "toolStart" && !seenAtStart) {
          seenAtStart = events.map((x) => x.event);
          release();
        }
      });
      expect(seenAtStart, `${JSON.stringify(events)}\n${worker.output()}`).toBeDefined();
      expect(seenAtStart).not.toContain("usedTools");
      const names = events.map((e) => e.event);
      expect(names.indexOf("usedTools")).toBeGreaterThan(names.indexOf("toolStart"));
      expect(names.lastIndexOf("token")).toBeGreaterThan(names.indexOf("toolStart"));
      expect(names.at(-1)).toBe("end");
      const starts = events.filter((e) => e.event === "toolStart").map((e) => e.data as ToolStart);
      const used = events.find((e) => e.event === "usedTools")!.data as UsedTool[];
      expect(starts.map((s) => [s.tool, s.input])).toEqual(used.map((u) => [u.tool, u.toolInput]));
    } finally {
      clearTimeout(fallback);
      productApi.setGate(undefined);
      release();
    }
  });
});
