import { HumanMessage } from "@langchain/core/messages";
import type { OpenAIChat } from "../shared/openai-chat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createModelStub, type ModelStub, scriptedBrain } from "../../../dev/model-stub/server";
import { testContext } from "../../flow/__fixtures__/graphs";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import { chatOllama } from ".";
import { ollamaOpenAIUrl } from "./runtime";

let stub: ModelStub;
beforeAll(async () => {
  stub = await createModelStub({ brain: scriptedBrain([{ content: "hi from llama" }, { content: "again" }]) });
});
afterAll(() => stub.close());

const schema = () => paramsSchemaFor(getDefinition("chatOllama")!);
const build = (params: Record<string, unknown>) =>
  chatOllama.runtime({
    nodeId: "o",
    label: "Ollama",
    params: schema().parse(params),
    inputs: {},
    ctx: testContext(),
  }) as Promise<OpenAIChat>;

describe("Ollama chat model node", () => {
  it("calls <base URL>/v1/chat/completions with the model and sampling params, no credential", async () => {
    const model = await build({
      baseUrl: stub.origin,
      model: "llama3.2",
      temperature: 0.2,
      topP: 0.5,
      maxTokens: 64,
      stop: "User:, END",
    });
    const reply = await model.invoke([new HumanMessage("hello")]);
    expect(reply.content).toBe("hi from llama");
    expect(stub.requests.at(-1)).toMatchObject({
      path: "/v1/chat/completions",
      body: {
        model: "llama3.2",
        temperature: 0.2,
        top_p: 0.5,
        max_tokens: 64,
        stop: ["User:", "END"],
        messages: [{ role: "user", content: "hello" }],
      },
    });
    // A base URL pasted with /v1 (and a trailing slash) reaches the same endpoint.
    await (await build({ baseUrl: `${stub.origin}/v1/`, model: "llama3.2" })).invoke([new HumanMessage("x")]);
    expect(stub.requests.at(-1)).toMatchObject({ path: "/v1/chat/completions", body: { temperature: 0.9 } });
  });

  it("defaults to a local Ollama and requires a model name", () => {
    expect(schema().parse({ model: "m" })).toMatchObject({ baseUrl: "http://127.0.0.1:11434", temperature: 0.9 });
    expect(schema().safeParse({}).success).toBe(false);
    expect(schema().safeParse({ model: "m", baseUrl: "ftp://x" }).success).toBe(false);
  });

  it("builds the OpenAI-compatible URL and refuses an unusable one", () => {
    expect(ollamaOpenAIUrl("http://127.0.0.1:11434", "O")).toBe("http://127.0.0.1:11434/v1");
    expect(ollamaOpenAIUrl("https://gpu.example/ollama/", "O")).toBe("https://gpu.example/ollama/v1");
    expect(ollamaOpenAIUrl("https://gpu.example/ollama/v1", "O")).toBe("https://gpu.example/ollama/v1");
    expect(() => ollamaOpenAIUrl("http://", "Ollama (node o)")).toThrow(/Ollama \(node o\): the base URL/);
  });
});
