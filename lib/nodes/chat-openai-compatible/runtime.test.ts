import { HumanMessage } from "@langchain/core/messages";
import { requestOverFetch } from "../../security/outbound";
import type { OpenAIChat } from "../shared/openai-chat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "../../flow/__fixtures__/graphs";
import { createModelStub, type ModelStub, scriptedBrain } from "../../../dev/model-stub/server";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import { chatOpenAICompatible } from ".";

let stub: ModelStub;
beforeAll(async () => {
  stub = await createModelStub({
    brain: scriptedBrain([{ toolCalls: [{ name: "lookup", arguments: { q: "x" } }] }, { content: "ok" }]),
  });
});
afterAll(() => stub.close());

describe("OpenAI-compatible chat model node", () => {
  it("talks to an OpenAI-compatible server by base URL with the credential's key", async () => {
    const params = paramsSchemaFor(getDefinition("chatOpenAICompatible")!).parse({
      credential: "c1",
      model: "llama3",
      baseURL: stub.url,
      temperature: 0,
    });
    const ctx = testContext({ c1: { name: "Local", type: "openai", data: { apiKey: "sk-test", baseURL: stub.url } } });
    const model = (await chatOpenAICompatible.runtime({
      nodeId: "m",
      label: "Model",
      params,
      inputs: {},
      ctx,
    })) as OpenAIChat;
    const tool = {
      type: "function" as const,
      function: {
        name: "lookup",
        description: "Looks up",
        parameters: { type: "object", properties: { q: { type: "string" } } },
      },
    };
    const reply = await model.bindTools([tool]).invoke([new HumanMessage("find x")]);
    expect(reply.tool_calls).toEqual([expect.objectContaining({ name: "lookup", args: { q: "x" } })]);
    expect(stub.requests[0].body).toMatchObject({
      model: "llama3",
      temperature: 0,
      messages: [{ role: "user", content: "find x" }],
      tools: [{ type: "function", function: { name: "lookup" } }],
    });
  });

  it("sends Flowise ChatOpenAI's sampling params (top P, frequency and presence penalty) when set", async () => {
    const params = paramsSchemaFor(getDefinition("chatOpenAICompatible")!).parse({
      model: "gpt-x",
      baseURL: stub.url,
      topP: 0.3,
      frequencyPenalty: 0.5,
      presencePenalty: -0.5,
      timeout: 5000,
    });
    // The node's timeout goes to the model guard (which caps it at MODEL_TIMEOUT_MS).
    const fetchOptions: unknown[] = [];
    const ctx = {
      ...testContext(),
      modelRequest: (opts: unknown) => {
        fetchOptions.push(opts);
        return requestOverFetch(fetch);
      },
    };
    const model = (await chatOpenAICompatible.runtime({
      nodeId: "m",
      label: "Model",
      params,
      inputs: {},
      ctx,
    })) as OpenAIChat;
    expect(fetchOptions).toEqual([expect.objectContaining({ requester: "Model (node m)", timeoutMs: 5000 })]);
    await model.invoke([new HumanMessage("hi")]);
    expect(stub.requests.at(-1)?.body).toMatchObject({
      model: "gpt-x",
      top_p: 0.3,
      frequency_penalty: 0.5,
      presence_penalty: -0.5,
    });
    expect(paramsSchemaFor(getDefinition("chatOpenAICompatible")!).safeParse({ frequencyPenalty: 3 }).success).toBe(
      false,
    );
  });

  it("falls back to the environment from the build context and refuses to build with no key at all", async () => {
    const params = paramsSchemaFor(getDefinition("chatOpenAICompatible")!).parse({});
    const ctx = testContext();
    await expect(
      chatOpenAICompatible.runtime({ nodeId: "m", label: "Model", params, inputs: {}, ctx }),
    ).rejects.toMatchObject({ code: "not_configured" });
    const withEnv = { ...ctx, env: { OPENAI_MODEL: "gpt-test", OPENAI_API_KEY: "sk-env" } };
    const model = (await chatOpenAICompatible.runtime({
      nodeId: "m",
      label: "Model",
      params,
      inputs: {},
      ctx: withEnv,
    })) as OpenAIChat;
    expect(model.model).toBe("gpt-test");
    expect(model.apiKey).toBe("sk-env");
  });
});
