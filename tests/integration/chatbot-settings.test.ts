import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, call } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createProductApi, type ProductApi } from "../../dev/product-api/server";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as publicConfig from "../../app/api/v1/public-chatbotConfig/[id]/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { getDb } from "../../lib/db/client";
import { createApiKey } from "../../lib/services/api-keys";
import { setupFirstAdmin } from "../../lib/services/users";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { AVATAR_MAX_BYTES } from "@/common/schemas/chatflow";

// Issue 14: the chatbot settings of the Publish dialog (saved and checked by PUT /chatflows/{id},
// served by GET /public-chatbotConfig/{id}), and "show tool calls to visitors", which the server
// enforces: anonymous callers get no usedTools / toolStart unless it is on; keys and studio users always do.

let stub: ModelStub;
let productApi: ProductApi;
let session: Record<string, string>;
let key: string;
let agentId: string;

const QUESTION = "find me a laptop under 1500 in Germany";

beforeAll(async () => {
  [stub, productApi] = await Promise.all([createModelStub(), createProductApi()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  const agent = exampleFlow("product-search-agent.json", { productApiUrl: productApi.url });
  // A public chatflow with no chatbot settings at all: what a new flow is.
  agentId = (await createChatflow({ name: "agent", graph: agent.graph as never, isPublic: true }, systemCaller)).id;
  key = (await createApiKey({ name: "k", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(() => Promise.all([stub.close(), productApi.close()]));

const put = (id: string, body: object) =>
  call(chatflowById.PUT, { method: "PUT", params: { id }, headers: session, body });
const getConfig = (id: string) => call(publicConfig.GET, { params: { id } });
const predict = (headers: Record<string, string>, body: object) =>
  call(prediction.POST, {
    method: "POST",
    params: { id: agentId },
    headers: { "x-switchyard-client-ip": "10.0.0.7", ...headers },
    body: { question: QUESTION, ...body },
  });
/** The SSE events of a streamed answer, by name. */
const events = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith("data:"))
    .map((l) => JSON.parse(l.slice(5)) as { event: string; data: unknown });
const setToolCalls = async (on: boolean | undefined) =>
  expect((await put(agentId, { chatbotConfig: on === undefined ? {} : { showToolCalls: on } })).status).toBe(200);

describe("chatbot settings: saved, validated, served to the widget", () => {
  it("saves every setting and the widget's config carries them", async () => {
    const avatar = `data:image/png;base64,${Buffer.alloc(100, 1).toString("base64")}`;
    const res = await put(agentId, {
      chatbotConfig: {
        title: "Gadget helper",
        welcomeMessage: "Hello, visitor!",
        starterPrompts: ["Laptops?", "Headphones?"],
        inputPlaceholder: "Ask me",
        showToolCalls: true,
        chatFeedback: { status: true },
        theme: {
          primaryColor: "#0F766E",
          backgroundColor: "#ffffff",
          textColor: "#111827",
          botBubbleColor: "#f1f5f9",
          userBubbleColor: "#0f766e",
          avatarUrl: avatar,
          position: "left",
        },
      },
    });
    expect(res.status).toBe(200);
    const config = (await getConfig(agentId)).json;
    expect(config).toMatchObject({
      title: "Gadget helper",
      welcomeMessage: "Hello, visitor!",
      starterPrompts: { 0: { prompt: "Laptops?" }, 1: { prompt: "Headphones?" } },
      inputPlaceholder: "Ask me",
      showToolCalls: true,
      chatFeedback: { status: true },
      theme: { primaryColor: "#0F766E", avatarUrl: avatar, position: "left", userBubbleColor: "#0f766e" },
    });
    await setToolCalls(undefined);
    expect((await getConfig(agentId)).json.showToolCalls).toBe(false);
  });

  const bad: [string, object, string][] = [
    ["a colour name", { theme: { primaryColor: "red" } }, "theme.primaryColor"],
    ["an rgb() colour", { theme: { textColor: "rgb(1 2 3)" } }, "theme.textColor"],
    ["a short hex colour", { theme: { botBubbleColor: "#fff" } }, "theme.botBubbleColor"],
    ["CSS smuggled in a colour", { theme: { backgroundColor: "#ffffff; background:url(x)" } }, "theme.backgroundColor"],
    ["an http avatar", { theme: { avatarUrl: "http://cdn.example.com/a.png" } }, "theme.avatarUrl"],
    ["a javascript: avatar", { theme: { avatarUrl: "javascript:alert(1)" } }, "theme.avatarUrl"],
    ["an svg data avatar", { theme: { avatarUrl: "data:image/svg+xml;base64,PHN2Zz4=" } }, "theme.avatarUrl"],
    [
      "a data avatar over the size",
      { theme: { avatarUrl: `data:image/png;base64,${Buffer.alloc(AVATAR_MAX_BYTES + 3000).toString("base64")}` } },
      "theme.avatarUrl",
    ],
    ["an unknown position", { theme: { position: "top" } }, "theme.position"],
    ["eleven starter prompts", { starterPrompts: Array.from({ length: 11 }, (_, i) => `p${i}`) }, "starterPrompts"],
    ["a long starter prompt", { starterPrompts: ["x".repeat(301)] }, "starterPrompts.0"],
    ["a long title", { title: "t".repeat(201) }, "title"],
    ["a long welcome message", { welcomeMessage: "w".repeat(2001) }, "welcomeMessage"],
    ["a non-boolean tool switch", { showToolCalls: "yes" }, "showToolCalls"],
  ];
  for (const [what, chatbotConfig, field] of bad) {
    it(`refuses ${what} with a 400 naming the field`, async () => {
      const res = await put(agentId, { chatbotConfig });
      expect(res.status).toBe(400);
      expect(res.json.error.details.map((d: { field: string }) => d.field)).toContain(`body.chatbotConfig.${field}`);
    });
  }

  it("takes an https avatar and a data:image avatar just under the size", async () => {
    const big = `data:image/jpeg;base64,${Buffer.alloc(AVATAR_MAX_BYTES - 3).toString("base64")}`;
    expect((await put(agentId, { chatbotConfig: { theme: { avatarUrl: big } } })).status).toBe(200);
    expect(
      (await put(agentId, { chatbotConfig: { theme: { avatarUrl: "https://cdn.example.com/a.png" } } })).status,
    ).toBe(200);
    expect((await getConfig(agentId)).json.theme.avatarUrl).toBe("https://cdn.example.com/a.png");
  });
});

describe("show tool calls to visitors", () => {
  it("off (the default): an anonymous streamed answer has no toolStart or usedTools, but the tool still ran", async () => {
    await setToolCalls(undefined);
    const before = productApi.requests.length;
    const res = await predict({}, { streaming: true });
    expect(res.status).toBe(200);
    const names = events(res.text).map((e) => e.event);
    expect(names).toContain("token");
    expect(names).not.toContain("toolStart");
    expect(names).not.toContain("usedTools");
    expect(res.text).not.toContain("product_search");
    expect(productApi.requests.length).toBeGreaterThan(before);
    expect(res.text).toMatch(/Laptop/);
    // The builder still sees them in the stored conversation.
    const stored = await (await getDb()).chatMessage.findMany({ where: { chatflowId: agentId, role: "apiMessage" } });
    expect(JSON.stringify(stored.at(-1)?.usedTools)).toContain("product_search");
  });

  it("off: an anonymous JSON answer has no usedTools; turned off explicitly too", async () => {
    await setToolCalls(false);
    const res = await predict({}, {});
    expect(res.status).toBe(200);
    expect(res.json.text).toMatch(/Laptop/);
    expect(res.json).not.toHaveProperty("usedTools");
  });

  it("off: API keys and studio users still get them, streamed and as JSON", async () => {
    await setToolCalls(false);
    const keyed = await predict(auth.bearer(key), { streaming: true });
    const names = events(keyed.text).map((e) => e.event);
    expect(names).toContain("toolStart");
    expect(names).toContain("usedTools");
    const studio = await predict(session, {});
    expect(studio.json.usedTools?.[0]?.tool).toBe("product_search");
  });

  it("on: anonymous visitors get toolStart and usedTools", async () => {
    await setToolCalls(true);
    const streamed = events((await predict({}, { streaming: true })).text);
    expect(streamed.map((e) => e.event)).toEqual(expect.arrayContaining(["toolStart", "usedTools"]));
    const json = (await predict({}, {})).json;
    expect(json.usedTools?.[0]?.tool).toBe("product_search");
  });
});

describe("the full-page chat's own origin", () => {
  it("is no foreign site: a public chatflow with no allowed origins answers the app's own pages, not others", async () => {
    // tests/support/http.ts sends every request to http://127.0.0.1:3000: that is the app here.
    const own = { origin: "http://127.0.0.1:3000" };
    expect((await call(publicConfig.GET, { params: { id: agentId }, headers: own })).json.originAllowed).toBeNull();
    expect((await predict(own, {})).status).toBe(200);
    const other = { origin: "http://127.0.0.1:3001" };
    expect((await call(publicConfig.GET, { params: { id: agentId }, headers: other })).json.originAllowed).toBe(false);
    expect((await predict(other, {})).status).toBe(403);
  });
});
