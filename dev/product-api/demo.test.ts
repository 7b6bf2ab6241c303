import { AgentExecutor, createToolCallingAgent } from "@langchain/classic/agents";
import { createOpenAPIChain } from "@langchain/classic/chains";
import { ChainTool } from "@langchain/classic/tools";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { ChatPromptTemplate, MessagesPlaceholder } from "@langchain/core/prompts";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createModelStub, type ModelStub } from "../model-stub/server";
import { productSearchSpec } from "./spec";
import { createProductApi, type ProductApi } from "./server";

// The seed's demo, wired by hand: OpenAPI chain → Chain Tool → tool-calling agent, with the
// demo brain standing in for the model and the real product API behind the spec.
let stub: ModelStub;
let api: ProductApi;
let spec: string;

beforeAll(async () => {
  [stub, api] = await Promise.all([createModelStub(), createProductApi({ unavailable: false })]);
  const doc = parse(productSearchSpec);
  // createOpenAPIChain takes a string (URL, JSON or YAML text) or its own Document type.
  spec = JSON.stringify({ ...doc, servers: [{ url: api.url }] });
});
afterAll(() => Promise.all([stub.close(), api.close()]));
beforeEach(() => api.setUnavailable(false));

function llm() {
  return new ChatOpenAI({
    model: "stub-model",
    apiKey: "test",
    streaming: false,
    maxRetries: 0,
    configuration: { baseURL: stub.url },
  });
}

async function buildAgent() {
  const chain = await createOpenAPIChain(spec, { llm: llm() });
  const tool = new ChainTool({
    name: "product_search",
    description: "Use this when the user wants to find or buy a product; input is the user's request.",
    chain,
  });
  const prompt = ChatPromptTemplate.fromMessages([
    ["system", "You are a helpful shopping assistant."],
    new MessagesPlaceholder("chat_history"),
    ["human", "{input}"],
    new MessagesPlaceholder("agent_scratchpad"),
  ]);
  const agent = createToolCallingAgent({ llm: llm(), tools: [tool], prompt });
  return new AgentExecutor({ agent, tools: [tool] });
}

describe("product-search demo with the demo brain", () => {
  it("finds laptops in Germany through the agent, the chain tool and the real API", async () => {
    const before = api.requests.length;
    const agent = await buildAgent();
    const result = await agent.invoke({ input: "Find me a laptop under 1500 in Germany", chat_history: [] });
    expect(api.requests.slice(before).map((r) => r.query)).toEqual([
      { countryCode: "DE", q: "laptop", max_price: "1500" },
    ]);
    expect(result.output).toBe(
      "I found 2 products: Northwind Air 13 Laptop (918.99 EUR), Contoso ProBook 15 Laptop (1332.99 EUR).",
    );
  });

  it("converses without calling the API and remembers a name from the history", async () => {
    const before = api.requests.length;
    const agent = await buildAgent();
    const result = await agent.invoke({
      input: "What is my name?",
      chat_history: [new HumanMessage("Hi, my name is Ada"), new AIMessage("Nice to meet you, Ada!")],
    });
    expect(result.output).toBe("Your name is Ada.");
    expect(api.requests.length).toBe(before);
  });

  it("explains the failure when the product API answers 503", async () => {
    api.setUnavailable(true);
    const agent = await buildAgent();
    const result = await agent.invoke({ input: "show me headphones in Sweden", chat_history: [] });
    expect(result.output).toMatch(/^Sorry, the product search failed: 503/);
  });

  it("lets the OpenAPI chain alone fail on an ordinary conversational message", async () => {
    const chain = await createOpenAPIChain(spec, { llm: llm() });
    await expect(chain.invoke({ query: "hello, how are you?" })).rejects.toThrow();
    const ok = await chain.invoke({ query: "coffee makers in Denmark between 600 and 5000" });
    expect(JSON.parse(ok.response as string).products.map((p: { price: string }) => p.price)).toEqual(["3789.00 DKK"]);
  });
});
