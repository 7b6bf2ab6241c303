import { ChatAnthropic } from "@langchain/anthropic";
import { AIMessage, type AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type BrainRequest, createModelStub, demoBrain, type ModelStub, scriptedBrain } from "./server";

let stub: ModelStub;
beforeAll(async () => {
  stub = await createModelStub({ apiKey: "sk-ant-stub" });
});
afterAll(() => stub.close());

const claude = (apiKey = "sk-ant-stub") =>
  new ChatAnthropic({ model: "claude-stub", apiKey, maxRetries: 0, anthropicApiUrl: stub.origin });
const searchTool = {
  name: "product_search",
  description: "Search the product catalog",
  schema: z.object({ query: z.string() }),
};

describe("Anthropic Messages API of the model stub, through the real SDK", () => {
  it("hands the brain the system prompt, the messages and the tools, and answers a tool_use", async () => {
    const seen: BrainRequest[] = [];
    const script = scriptedBrain([{ toolCalls: [{ name: "product_search", arguments: { query: "laptop" } }] }]);
    stub.setBrain((req) => {
      seen.push(req);
      return script(req);
    });
    const reply = await claude()
      .bindTools([searchTool])
      .invoke([new SystemMessage("Be brief."), new HumanMessage("find a laptop")]);
    expect(reply.tool_calls).toEqual([
      { name: "product_search", args: { query: "laptop" }, id: expect.stringMatching(/^toolu_/), type: "tool_call" },
    ]);
    expect(seen[0].messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "find a laptop" },
    ]);
    expect(seen[0].tools).toEqual([
      expect.objectContaining({ name: "product_search", parameters: expect.objectContaining({ type: "object" }) }),
    ]);
  });

  it("streams text word by word and a tool_use as JSON deltas", async () => {
    stub.setBrain(
      scriptedBrain([
        { content: "One word at a time." },
        { toolCalls: [{ name: "product_search", arguments: { query: "phone" } }] },
      ]),
    );
    const pieces: string[] = [];
    for await (const chunk of await claude().stream("hi"))
      if (typeof chunk.content === "string" && chunk.content) pieces.push(chunk.content);
    expect(pieces).toEqual(["One", " word", " at", " a", " time."]);
    let all: AIMessageChunk | undefined;
    for await (const chunk of await claude().bindTools([searchTool]).stream("find a phone"))
      all = all ? all.concat(chunk) : chunk;
    expect(all?.tool_calls).toEqual([expect.objectContaining({ name: "product_search", args: { query: "phone" } })]);
  });

  it("gives tool results to the brain as tool messages (the demo brain summarises them)", async () => {
    stub.setBrain(demoBrain);
    const products = JSON.stringify({ products: [{ name: "ThinkBook 14", price: "899.00 EUR" }] });
    const reply = await claude().invoke([
      new HumanMessage("find me a laptop under 1500 in Germany"),
      new AIMessage({
        content: "",
        tool_calls: [{ id: "toolu_1", name: "product_search", args: { query: "laptop" } }],
      }),
      new ToolMessage({ tool_call_id: "toolu_1", content: products }),
    ]);
    expect(reply.content).toBe("I found 1 product: ThinkBook 14 (899.00 EUR).");
  });

  it("refuses a wrong x-api-key and answers a brain error with its status", async () => {
    await expect(claude("sk-wrong").invoke("hi")).rejects.toMatchObject({ status: 401 });
    stub.setBrain(() => ({ error: { status: 529, message: "Overloaded" } }));
    await expect(claude().invoke("hi")).rejects.toMatchObject({ status: 529 });
    expect(stub.requests.at(-1)).toMatchObject({ path: "/v1/messages", apiKey: "sk-ant-stub" });
  });
});
