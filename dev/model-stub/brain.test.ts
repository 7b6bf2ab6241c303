import { describe, expect, it } from "vitest";
import {
  type BrainRequest,
  type ChatMessage,
  demoBrain,
  scriptedBrain,
  summariseToolResult,
  type ToolDefinition,
} from "./brain";
import { readProductIntent } from "./product-intent";

const openApiTool: ToolDefinition = {
  name: "productsUsingGET",
  description: "Fetches product information",
  parameters: { type: "object", properties: { params: { type: "object" } }, required: ["params"] },
};
const chainTool: ToolDefinition = {
  name: "shopping",
  description: "Use this to search for products the user wants to buy",
  parameters: { type: "object", properties: { input: { type: "string" } } },
};

function request(messages: ChatMessage[], tools: ToolDefinition[] = []): BrainRequest {
  return { model: "m", messages, tools, body: {} };
}
const user = (content: ChatMessage["content"]): ChatMessage => ({ role: "user", content });

describe("readProductIntent", () => {
  it.each([
    ["find me a laptop under 1500 in Germany", { q: "laptop", countryCode: "DE", maxPrice: 1500 }],
    ["I'm looking for running shoes in the UK over £100", { q: "running shoe", countryCode: "GB", minPrice: 100 }],
    [
      "show me headphones between 1,000 and 3,000 SEK",
      { q: "headphones", countryCode: "SE", minPrice: 1000, maxPrice: 3000 },
    ],
    ["buy a cheap blender in Denmark", { q: "blender", countryCode: "DK" }],
    ["Any coffee makers?", { q: "coffee maker", countryCode: "US" }],
  ])("reads %j", (text, intent) => {
    expect(readProductIntent(text)).toEqual(intent);
  });

  it("finds no product in small talk", () => {
    expect(readProductIntent("what is my name?")).toBeUndefined();
    expect(readProductIntent("I want to talk about the weather")).toBeUndefined();
  });
});

describe("demoBrain", () => {
  it("calls an OpenAPI operation tool with its query nested under params", async () => {
    const reply = await demoBrain(request([user("Find me a laptop under 1500 in Germany")], [openApiTool]));
    expect(reply).toEqual({
      toolCalls: [
        { name: "productsUsingGET", arguments: { params: { countryCode: "DE", q: "laptop", max_price: 1500 } } },
      ],
    });
  });

  it("calls a flat operation tool with flat arguments", async () => {
    const flat = { ...openApiTool, parameters: { type: "object", properties: { countryCode: {}, q: {} } } };
    const reply = await demoBrain(request([user("monitors in Sweden")], [flat]));
    expect(reply).toEqual({
      toolCalls: [{ name: "productsUsingGET", arguments: { countryCode: "SE", q: "monitor" } }],
    });
  });

  it("passes the whole user message to a Chain Tool", async () => {
    const reply = await demoBrain(request([user("I want to buy headphones")], [chainTool]));
    expect(reply).toEqual({ toolCalls: [{ name: "shopping", arguments: { input: "I want to buy headphones" } }] });
  });

  it("does not call unrelated tools or answer shopping without a tool", async () => {
    const calculator = {
      name: "calculator",
      description: "Evaluates maths",
      parameters: { properties: { input: {} } },
    };
    expect(await demoBrain(request([user("find me a laptop")], [calculator]))).toEqual({
      content: expect.stringContaining("You said"),
    });
  });

  it("summarises products, empty results and errors of a tool result", () => {
    const tool = (content: string): ChatMessage => ({ role: "tool", content, tool_call_id: "1" });
    const products = JSON.stringify({
      products: [
        { name: "A", price: "1.00 USD" },
        { name: "B", price: "2.00 USD" },
      ],
    });
    expect(demoBrain(request([user("x"), tool(products)]))).toEqual({
      content: "I found 2 products: A (1.00 USD), B (2.00 USD).",
    });
    expect(summariseToolResult('{"products":[]}')).toMatch(/couldn't find any products/);
    expect(summariseToolResult("503: Service Unavailable for productsUsingGET")).toMatch(
      /^Sorry, the product search failed: 503/,
    );
    expect(summariseToolResult('{"error":{"code":"forbidden","message":"host blocked"}}')).toMatch(
      /failed: host blocked/,
    );
  });

  it("remembers a name given earlier in the conversation", async () => {
    const messages: ChatMessage[] = [
      user("Hello, my name is Grace"),
      { role: "assistant", content: "Nice to meet you, Grace!" },
      user("what's my name?"),
    ];
    expect(await demoBrain(request(messages))).toEqual({ content: "Your name is Grace." });
    expect(await demoBrain(request([user("what is my name")]))).toEqual({
      content: expect.stringMatching(/don't know your name/),
    });
  });

  it("repeats its system message when asked for its instructions (tests see which flow version answered)", async () => {
    const system: ChatMessage = { role: "system", content: "You are Rex the dog." };
    expect(await demoBrain(request([system, user("What are your instructions?")]))).toEqual({
      content: 'My instructions: "You are Rex the dog."',
    });
    expect(await demoBrain(request([user("what are your instructions")]))).toEqual({
      content: "I have no instructions.",
    });
  });

  it("counts image parts", async () => {
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } };
    const reply = await demoBrain(request([user([{ type: "text", text: "what is this?" }, image, image])]));
    expect(reply).toEqual({ content: 'I see 2 images. You asked: "what is this?".' });
  });
});

describe("scriptedBrain", () => {
  it("returns replies in order and then fails loudly", () => {
    const brain = scriptedBrain([{ content: "one" }, { toolCalls: [{ name: "t", arguments: {} }] }]);
    const req = request([user("x")]);
    expect(brain(req)).toEqual({ content: "one" });
    expect(brain(req)).toEqual({ toolCalls: [{ name: "t", arguments: {} }] });
    expect(() => brain(req)).toThrow(/no scripted replies left/);
  });
});
