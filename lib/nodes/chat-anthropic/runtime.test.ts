import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { ChatAnthropic } from "@langchain/anthropic";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelStub, type ModelStub } from "../../../dev/model-stub/server";
import { testContext } from "../../flow/__fixtures__/graphs";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import { resetEnvForTests } from "../../env";
import { createModelFetch } from "../../security/outbound-policy";
import { chatAnthropic } from ".";

// The model stub speaks Anthropic's Messages API too: JSON, or SSE events when `stream` is set.
let stub: ModelStub;
let baseURL: string;

beforeAll(async () => {
  stub = await createModelStub({ brain: () => ({ content: "Hello from Claude" }) });
  baseURL = stub.origin;
});
afterAll(() => stub.close());

const build = async (credential: Record<string, string>, extra: Record<string, unknown> = {}) => {
  const params = paramsSchemaFor(getDefinition("chatAnthropic")!).parse({
    credential: "a1",
    model: "claude-test",
    temperature: 0.2,
    ...extra,
  });
  return (await chatAnthropic.runtime({
    nodeId: "m",
    label: "Claude",
    params,
    inputs: {},
    ctx: testContext({ a1: { name: "Claude key", type: "anthropic", data: credential } }),
  })) as ChatAnthropic;
};

describe("Anthropic chat model node", () => {
  it("sends the Messages API request with the credential's key, model, system prompt and limits", async () => {
    const model = await build({ apiKey: "sk-ant-test", baseURL });
    const reply = await model.invoke([new SystemMessage("Be brief."), new HumanMessage("Hi")]);
    expect(reply.content).toBe("Hello from Claude");
    expect(stub.requests.at(-1)?.body).toMatchObject({
      model: "claude-test",
      max_tokens: 2048,
      temperature: 0.2,
      system: "Be brief.",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(stub.requests.at(-1)?.apiKey).toBe("sk-ant-test");
  });

  it("extended thinking: sends the budget and no temperature; refuses a max below the budget", async () => {
    const model = await build(
      { apiKey: "sk-ant-test", baseURL },
      { extendedThinking: true, budgetTokens: 1500, maxTokens: 4000 },
    );
    const reply = await model.invoke([new HumanMessage("Think, then answer")]);
    expect(reply.content).toBe("Hello from Claude");
    const body = stub.requests.at(-1)?.body as Record<string, unknown>;
    expect(body).toMatchObject({ max_tokens: 4000, thinking: { type: "enabled", budget_tokens: 1500 } });
    expect(body.temperature).toBeUndefined();
    await expect(
      build({ apiKey: "sk-ant-test", baseURL }, { extendedThinking: true, budgetTokens: 4096, maxTokens: 2048 }),
    ).rejects.toMatchObject({
      code: "invalid_graph",
      message: expect.stringContaining("max tokens (2048) must be above the thinking budget (4096)"),
    });
  });

  it("streams tokens", async () => {
    const model = await build({ apiKey: "sk-ant-test", baseURL });
    const pieces: string[] = [];
    for await (const chunk of await model.stream([new HumanMessage("Hi")]))
      if (typeof chunk.content === "string" && chunk.content) pieces.push(chunk.content);
    expect(pieces).toEqual(["Hello", " from", " Claude"]);
  });

  it("streams through the guarded model fetch, which keeps the key on the credential's host", async () => {
    process.env.OUTBOUND_ALLOW_HOSTS = new URL(baseURL).host;
    resetEnvForTests();
    const asked: { requester: string; allowedHosts?: string[] }[] = [];
    const ctx = {
      ...testContext({ a1: { name: "Claude key", type: "anthropic", data: { apiKey: "sk-ant-test", baseURL } } }),
      modelFetch: (opts: { requester: string; allowedHosts?: string[] }) => {
        asked.push(opts);
        return createModelFetch(opts);
      },
    };
    const params = paramsSchemaFor(getDefinition("chatAnthropic")!).parse({ credential: "a1", model: "claude-test" });
    const model = (await chatAnthropic.runtime({
      nodeId: "m",
      label: "Claude",
      params,
      inputs: {},
      ctx,
    })) as ChatAnthropic;
    const pieces: string[] = [];
    for await (const chunk of await model.stream([new HumanMessage("Hi")]))
      if (typeof chunk.content === "string" && chunk.content) pieces.push(chunk.content);
    expect(pieces).toEqual(["Hello", " from", " Claude"]);
    expect(asked).toEqual([
      {
        requester: "Claude (node m)",
        caller: { kind: "Chat model", node: { id: "m", label: "Claude" } },
        allowedHosts: [new URL(baseURL).host],
      },
    ]);
  });

  it("refuses a credential without a base URL anywhere but api.anthropic.com (it has no base URL param to move it)", async () => {
    const cred = { name: "Claude key", type: "anthropic", data: { apiKey: "sk-ant-test" } };
    const { assertCredentialHost } = await import("../../security/credential-hosts");
    expect(() => assertCredentialHost(cred, baseURL, "Claude")).toThrow(
      /credential "Claude key" may only be sent to api.anthropic.com/,
    );
  });

  it("refuses to build without an API key in the credential", async () => {
    await expect(build({ baseURL })).rejects.toMatchObject({ code: "not_configured" });
  });
});
