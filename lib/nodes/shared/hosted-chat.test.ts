import http from "node:http";
import type { AddressInfo } from "node:net";
import { HumanMessage } from "@langchain/core/messages";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { PROVIDER_KINDS } from "@/common/providers/catalogue";
import { credentialDataSchemas } from "@/common/schemas/credential";
import { getEnv, resetEnvForTests } from "../../env";
import { testContext } from "../../flow/__fixtures__/graphs";
import { createModelRequest } from "../../security/outbound-policy";
import { getDefinition, getNode } from "../registry";
import type { OpenAIChat } from "./openai-chat";

/** What a provider's server saw: the request line, the auth headers and the body. */
interface Seen {
  method?: string;
  url?: string;
  authorization?: string;
  apiKeyHeader?: string;
  body: Record<string, unknown>;
}

let seen: Seen[] = [];
/** The next answer: a chat completion, or a status with a provider's error body and headers. */
let next: { status: number; body: unknown; headers?: Record<string, string> } | undefined;
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      seen.push({
        method: req.method,
        url: req.url,
        authorization: req.headers.authorization,
        apiKeyHeader: req.headers["api-key"] as string | undefined,
        body,
      });
      const answer = next ?? {
        status: 200,
        body: {
          id: "c1",
          object: "chat.completion",
          model: body.model,
          choices: [
            { index: 0, message: { role: "assistant", content: "hello from the provider" }, finish_reason: "stop" },
          ],
          usage: { prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 },
        },
      };
      next = undefined;
      res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  seen = [];
  next = undefined;
});

async function build(type: string, credential: { type: string; data: Record<string, unknown> }, params = {}) {
  const parsed = paramsSchemaFor(getDefinition(type)!).parse({ credential: "c1", ...params });
  const ctx = testContext({ c1: { name: "Provider key", ...credential } });
  return (await getNode(type)!.runtime({
    nodeId: "m1",
    label: "Model",
    params: parsed,
    inputs: {},
    ctx,
  })) as OpenAIChat;
}

const hosted = [
  { type: "chatGroq", credential: "groq", model: "llama-3.3-70b-versatile" },
  { type: "chatDeepseek", credential: "deepseek", model: "deepseek-chat" },
  { type: "chatMistralAI", credential: "mistralAI", model: "mistral-small-latest" },
  { type: "chatOpenRouter", credential: "openRouter", model: "openai/gpt-4o-mini" },
  { type: "chatTogetherAI", credential: "togetherAI", model: "meta-llama/Llama-3.3-70B-Instruct-Turbo" },
] as const;

describe("hosted chat models speaking Chat Completions", () => {
  it.each(hosted)("$type sends Chat Completions with a Bearer key to the credential's base URL", async (p) => {
    const model = await build(p.type, { type: p.credential, data: { apiKey: "k-123", baseURL: `${base}/v1` } });
    const answer = await model.invoke([new HumanMessage("hi")]);
    expect(answer.content).toBe("hello from the provider");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "POST", url: "/v1/chat/completions", authorization: "Bearer k-123" });
    expect(seen[0].body).toMatchObject({ model: p.model, messages: [{ role: "user", content: "hi" }] });
    // The model field offers the provider's names but takes any other.
    const def = getDefinition(p.type)!;
    expect(def.inputs.find((i) => i.name === "model")).toMatchObject({
      suggestions: expect.arrayContaining([p.model]),
    });
    expect(paramsSchemaFor(def).safeParse({ credential: "c1", model: "a-model-released-tomorrow" }).success).toBe(true);
  });

  it.each(hosted)("$type without a base URL sends the key only to the provider's own host", async (p) => {
    const model = await build(p.type, { type: p.credential, data: { apiKey: "k-123" } });
    const provider = PROVIDER_KINDS[p.credential];
    expect((model as unknown as { url: string }).url).toBe(`${provider.defaultUrl}/chat/completions`);
  });

  it("needs a credential of the provider's own kind (never the server's OpenAI key)", () => {
    const def = getDefinition("chatGroq")!;
    expect(paramsSchemaFor(def).safeParse({}).success).toBe(false);
    expect(def.inputs.find((i) => i.name === "credential")).toMatchObject({ credentialTypes: ["groq"] });
  });
});

describe("Azure OpenAI chat model", () => {
  it("calls the deployment's path with the API version and an api-key header, no Bearer", async () => {
    const model = await build(
      "azureChatOpenAI",
      { type: "azureOpenAI", data: { apiKey: "az-key", baseURL: base, apiVersion: "2024-06-01" } },
      { model: "gpt-4o", deployment: "prod-gpt4o" },
    );
    await model.invoke([new HumanMessage("hi")]);
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: "/openai/deployments/prod-gpt4o/chat/completions?api-version=2024-06-01",
      apiKeyHeader: "az-key",
      authorization: undefined,
    });
  });

  it("defaults the deployment to the model name and the version to the credential schema's default", async () => {
    const data = credentialDataSchemas.azureOpenAI.parse({ apiKey: "az-key", baseURL: base });
    const model = await build("azureChatOpenAI", { type: "azureOpenAI", data }, { model: "gpt-4o-mini" });
    await model.invoke([new HumanMessage("hi")]);
    expect(seen[0].url).toBe("/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-10-21");
  });

  it("refuses a credential without an endpoint, or with a version that is not one", () => {
    expect(credentialDataSchemas.azureOpenAI.safeParse({ apiKey: "k" }).success).toBe(false);
    const bad = credentialDataSchemas.azureOpenAI.safeParse({ apiKey: "k", baseURL: base, apiVersion: "latest" });
    expect(bad.error?.issues[0].message).toMatch(/API version/);
  });
});

describe("provider failures through the model guard", () => {
  beforeAll(() => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "true";
    resetEnvForTests();
    getEnv();
  });
  afterAll(() => {
    delete process.env.OUTBOUND_ALLOW_PRIVATE;
    resetEnvForTests();
  });

  async function guarded(credentialType: string) {
    const parsed = paramsSchemaFor(getDefinition("chatGroq")!).parse({ credential: "c1" });
    const ctx = {
      ...testContext({
        c1: { name: "Groq key", type: credentialType, data: { apiKey: "k-secret-1", baseURL: `${base}/v1` } },
      }),
      modelRequest: createModelRequest,
    };
    return (await getNode("chatGroq")!.runtime({
      nodeId: "m1",
      label: "Model",
      params: parsed,
      inputs: {},
      ctx,
    })) as OpenAIChat;
  }

  it("a refused key → 502 saying the credentials were refused, never the key", async () => {
    next = { status: 401, body: { error: { message: "Invalid API Key k-secret-1" } } };
    const err = await (await guarded("groq")).invoke([new HumanMessage("hi")]).catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_error", details: { reason: "credentials_refused", status: 401 } });
    expect(err.status).toBe(502);
    expect(err.message).not.toContain("k-secret-1");
  });

  it("a 429 → 503 passing on the provider's Retry-After", async () => {
    next = { status: 429, body: { error: { message: "Rate limit reached" } }, headers: { "retry-after": "17" } };
    const err = await (await guarded("groq")).invoke([new HumanMessage("hi")]).catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_unavailable", details: { reason: "rate_limited", status: 429 } });
    expect(err.status).toBe(503);
    expect(err.headers).toEqual({ "Retry-After": "17" });
    expect(err.message).toMatch(
      /rate limited by the provider at 127\.0\.0\.1:\d+ \(HTTP 429\); it asks to retry after 17/,
    );
  });
});
