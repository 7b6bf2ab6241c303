import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "../../flow/__fixtures__/graphs";
import { fixtureLaptops } from "../../../dev/product-api/catalog";
import { createProductApi, type ProductApi } from "../../../dev/product-api/server";
import { productSearchSpec } from "../../../dev/product-api/spec";
import { runEndingChain } from "../../flow/run";
import { bufferMemory } from "../buffer-memory";
import { chainTool } from "../chain-tool";
import { openApiChain } from "../openapi-chain";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import type { RuntimeArgs } from "../runtime-types";
import type { ToolAgentChain } from "./agent";
import { toolAgent } from ".";

let api: ProductApi;
beforeAll(async () => {
  api = await createProductApi({ catalog: fixtureLaptops() });
});
afterAll(() => api.close());

const args = (type: string, params: Record<string, unknown>, inputs: Record<string, unknown>): RuntimeArgs => ({
  nodeId: type,
  label: type,
  params: paramsSchemaFor(getDefinition(type)!).parse(params),
  inputs,
  ctx: testContext(),
});

/** Tool Agent → Chain Tool → OpenAPI chain, all on one scripted model (its replies are consumed in order). */
async function productAgent(model: ReturnType<typeof fakeModel>, withMemory = false) {
  const chain = await openApiChain.runtime(
    args("openApiChain", { spec: productSearchSpec, serverUrl: api.url }, { model }),
  );
  const tool = await chainTool.runtime(
    args(
      "chainTool",
      { name: "product_search", description: "Finds products. Input: the user's request with country and budget." },
      { chain },
    ),
  );
  const memory = withMemory ? await bufferMemory.runtime(args("bufferMemory", { windowSize: 2 }, {})) : undefined;
  return (await toolAgent.runtime(
    args("toolAgent", { maxIterations: 4 }, { model, tools: [tool], memory }),
  )) as ToolAgentChain;
}

describe("Tool Agent", () => {
  it("answers small talk without calling a tool", async () => {
    const model = fakeModel().respond(new AIMessage("Hi! I can help you find products."));
    const before = api.requests.length;
    const result = await runEndingChain(await productAgent(model), { question: "hello", history: [] }, false);
    // The run also reports its usage (estimated: the fake model gives no counts), see lib/usage.
    expect(result).toMatchObject({ text: "Hi! I can help you find products.", usedTools: [] });
    expect(Object.keys(result).sort()).toEqual(["text", "usage", "usedTools"]);
    expect(api.requests.length).toBe(before);
  });

  it("calls the Chain Tool → OpenAPI chain and answers from the products", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "product_search", args: { input: "laptop in Germany up to 1500 EUR" } }])
      .respondWithTools([{ name: "productsUsingGET", args: { countryCode: "DE", q: "laptop", max_price: 1500 } }])
      .respond(
        (messages) =>
          new AIMessage(`Found: ${messages.at(-1)!.text.includes("ZenBook Pro") ? "ZenBook Pro" : "nothing"}`),
      )
      .respond((messages) => new AIMessage(`Here you go: ${messages.at(-1)!.text}`));
    const before = api.requests.length;
    const tokens: string[] = [];
    const result = await runEndingChain(
      await productAgent(model),
      { question: "I need a laptop under 1500 euros, I'm in Germany", history: [], onToken: (t) => tokens.push(t) },
      false,
    );
    const req = api.requests.slice(before);
    expect(req.map((r) => r.query)).toEqual([{ countryCode: "DE", q: "laptop", max_price: "1500" }]);
    expect(result.text).toBe("Here you go: Found: ZenBook Pro");
    expect(result.usedTools).toEqual([
      {
        tool: "product_search",
        toolInput: { input: "laptop in Germany up to 1500 EUR" },
        toolOutput: "Found: ZenBook Pro",
      },
    ]);
    // The chain's own answer stays inside the tool: only the agent's answer reaches the user.
    expect(tokens.join("")).toBe("Here you go: Found: ZenBook Pro");
  });

  it("tells onToolStart before the tool runs, only for the agent's own calls (not the OpenAPI chain inside)", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "product_search", args: { input: "laptop in Germany up to 1500 EUR" } }])
      .respondWithTools([{ name: "productsUsingGET", args: { countryCode: "DE", q: "laptop", max_price: 1500 } }])
      .respond(new AIMessage("Found: ZenBook Pro"))
      .respond(new AIMessage("Here you go."));
    const before = api.requests.length;
    const starts: { tool: string; input: unknown; apiRequestsSoFar: number }[] = [];
    const result = await runEndingChain(
      await productAgent(model),
      {
        question: "laptop please",
        history: [],
        onToolStart: (s) => starts.push({ tool: s.tool, input: s.input, apiRequestsSoFar: api.requests.length }),
      },
      false,
    );
    expect(starts).toEqual([
      { tool: "product_search", input: { input: "laptop in Germany up to 1500 EUR" }, apiRequestsSoFar: before },
    ]);
    expect(result.usedTools.map((u) => u.tool)).toEqual(["product_search"]);
    expect(api.requests.length).toBe(before + 1);
  });

  it("gives an upstream 503 to the agent as an observation and still answers", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "product_search", args: { input: "phone in Sweden" } }])
      .respondWithTools([{ name: "productsUsingGET", args: { countryCode: "SE", q: "phone" } }])
      .respond(new AIMessage("Sorry, the product search is unavailable right now. Please try again later."));
    api.setUnavailable(true);
    try {
      const result = await runEndingChain(
        await productAgent(model),
        { question: "a phone please, I'm in Sweden", history: [] },
        false,
      );
      expect(result.text).toContain("unavailable right now");
      const observation = model.calls[2].messages.find((m) => ToolMessage.isInstance(m))!;
      expect(observation.text).toMatch(
        /^Tool error: The API "Product Search API" .* is unavailable right now \(HTTP 503\)/,
      );
      expect(result.usedTools[0].toolOutput).toMatch(/^Tool error:/);
    } finally {
      api.setUnavailable(false);
    }
  });

  it("shows the model the OpenAPI chain's no-operation error as an observation", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "product_search", args: { input: "how are you" } }])
      .respond(new AIMessage("just chatting"))
      .respond(new AIMessage("I'm fine, thanks!"));
    const result = await runEndingChain(await productAgent(model), { question: "how are you?", history: [] }, false);
    expect(result.text).toBe("I'm fine, thanks!");
    expect(model.calls[2].messages.at(-1)!.text).toContain("found no API operation for this message");
  });

  it("gives the model the windowed history from its memory", async () => {
    const model = fakeModel().respond(new AIMessage("You said you live in Denmark."));
    const history = [
      { role: "userMessage" as const, content: "old question" },
      { role: "apiMessage" as const, content: "old answer" },
      { role: "userMessage" as const, content: "I live in Denmark" },
      { role: "apiMessage" as const, content: "Noted." },
    ];
    await runEndingChain(await productAgent(model, true), { question: "Where do I live?", history }, false);
    const seen = model.calls[0].messages.map((m) => `${m.type}:${m.text}`);
    expect(seen).toEqual([
      expect.stringMatching(/^system:/),
      "human:I live in Denmark",
      "ai:Noted.",
      "human:Where do I live?",
    ]);
  });

  it("stops after maxIterations", async () => {
    const model = fakeModel();
    for (let i = 0; i < 4; i++) model.respondWithTools([{ name: "nope", args: {} }]);
    const result = await runEndingChain(await productAgent(model), { question: "loop", history: [] }, false);
    expect(model.callCount).toBe(4);
    expect(result.usedTools[0].toolOutput).toContain('there is no tool named "nope"');
    expect(result.text).toBeTruthy();
  });
});
