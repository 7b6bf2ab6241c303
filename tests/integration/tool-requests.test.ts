import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { setupFirstAdmin } from "../../lib/services/users";
import { createChatflow } from "../../lib/services/chatflows";
import { systemCaller } from "../../dev/callers";
import type { UsedTool } from "@/common/schemas/prediction-stream";

/**
 * Issue 38, point 3: each tool call of an answer lists the HTTP requests it made (method, URL
 * without secrets, status, time), in the API answer and in the stored conversation; the model's own
 * calls are not listed.
 */

let stub: ModelStub;
let productApi: ProductApi;
let session: Record<string, string>;
let agentId: string;

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  const agent = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  agentId = (await createChatflow({ name: "agent", graph: agent.graph as never }, systemCaller)).id;
});
// The second test stops the product API itself.
afterAll(() => Promise.all([stub.close(), productApi.close().catch(() => {})]));

describe("a tool call's requests", () => {
  it("are listed with the call: the product API's GET with its query, 200 and a time; no model call", async () => {
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: agentId },
      headers: session,
      body: { question: "find me a laptop under 1500 in Germany" },
    });
    expect(res.status, res.text).toBe(200);
    const used = res.json.usedTools as UsedTool[];
    expect(used[0]?.tool).toBe("product_search");
    const requests = used[0].requests ?? [];
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.method).toBe("GET");
    expect(req.status).toBe(200);
    expect(req.ms).toBeGreaterThanOrEqual(0);
    const url = new URL(req.url);
    expect(url.origin).toBe(new URL(productApi.url).origin);
    expect(url.pathname).toBe("/public/ai/v0/products");
    expect(url.searchParams.get("countryCode")).toBe("DE");
    expect(JSON.stringify(requests)).not.toContain(new URL(stub.url).host);
    // Kept with the stored answer: Conversations shows it.
    const stored = await (await getDb()).chatMessage.findUniqueOrThrow({ where: { id: res.json.chatMessageId } });
    expect((stored.usedTools as UsedTool[])[0].requests).toEqual(requests);
  });

  it("a request that fails is listed with its error and no status", async () => {
    await productApi.close();
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: agentId },
      headers: session,
      body: { question: "find me a laptop under 1500 in Germany" },
    });
    const used = (res.json.usedTools ?? []) as UsedTool[];
    const req = used[0]?.requests?.[0];
    expect(req, res.text).toBeDefined();
    expect(req?.status).toBeUndefined();
    expect(req?.error).toBeTruthy();
  });
});
