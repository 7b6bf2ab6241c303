import { describe, expect, it } from "vitest";
import { testCaseBodySchema } from "@/common/schemas/chatflow-tests";
import { caseFromExchange, distinctiveWords, mainInputFields, toolsOfConversation } from "./test-case-draft";

describe("save this exchange as a test", () => {
  it("prefills status 200, each tool with its main input fields, and a few distinctive answer words", () => {
    const draft = caseFromExchange({
      question: "find me a laptop under 1500 in Germany",
      answer: "I found 2 products: Northwind Air 13 Laptop (918.99 EUR), Contoso ProBook 15 Laptop (1332.99 EUR).",
      usedTools: [
        {
          tool: "productsUsingGET",
          toolInput: { countryCode: "DE", q: "laptop", max_price: 1500, nested: { a: 1 } },
          toolOutput: "{}",
        },
        { tool: "productsUsingGET", toolInput: { countryCode: "GB" }, toolOutput: "{}" },
      ],
    });
    expect(draft.name).toBe("find me a laptop under 1500 in Germany");
    expect(draft.expectations[0]).toEqual({ type: "status", value: 200 });
    expect(draft.expectations[1]).toEqual({
      type: "toolCalled",
      tool: "productsUsingGET",
      input: { countryCode: "DE", q: "laptop", max_price: 1500 },
    });
    const words = draft.expectations
      .filter((e) => e.type === "answerContains")
      .map((e) => (e as { value: string }).value);
    expect(words).toHaveLength(3);
    expect(words.every((w) => draft.expectations.length && !["laptop", "found"].includes(w.toLowerCase()))).toBe(true);
    expect(words).toContain("Northwind");
    // What it makes is a case the API takes.
    expect(testCaseBodySchema.safeParse(draft).success).toBe(true);
  });

  it("reads a chain tool's JSON text input, and makes no tool expectation without tools", () => {
    expect(mainInputFields('{"q":"laptop"}')).toEqual({ q: "laptop" });
    expect(mainInputFields("plain text")).toBeUndefined();
    const draft = caseFromExchange({ question: "Hello!", answer: "Hello! I can chat, or search for products." });
    expect(draft.expectations.map((e) => e.type)).toEqual([
      "status",
      "answerContains",
      "answerContains",
      "answerContains",
    ]);
  });

  it("distinctive words skip the question's words and filler", () => {
    expect(distinctiveWords("Your name is Ada, and that is that.", "What is my name?")).toEqual(["Ada"]);
  });
});

describe("checks a builder would keep (issue 38, point 9)", () => {
  it("small talk: no pleasantries or sentence-initial capitals, and the conversation's tools not called", () => {
    const draft = caseFromExchange({
      question: "hi there",
      answer: "Hello! Thank you for asking. Today I can help you find products from the Contoso catalogue.",
      usedTools: [],
      knownTools: ["product_search", "product_search"],
    });
    const words = draft.expectations.filter((e) => e.type === "answerContains").map((e) => e.value);
    expect(words.map((w) => w.toLowerCase())).not.toEqual(expect.arrayContaining(["hello"]));
    for (const filler of ["hello", "thank", "today", "help"])
      expect(words.map((w) => w.toLowerCase())).not.toContain(filler);
    expect(words).toContain("Contoso");
    expect(draft.expectations).toContainEqual({ type: "toolNotCalled", tool: "product_search" });
    expect(draft.expectations.filter((e) => e.type === "toolNotCalled")).toHaveLength(1);
  });

  it("an agent answer keeps the tool input's key fields, not its free text or nested parts", () => {
    const draft = caseFromExchange({
      question: "find me a cheap laptop in Germany for my daughter who starts university",
      answer: "Northwind Air 13 costs 918.99 EUR.",
      usedTools: [
        {
          tool: "product_search",
          toolInput: JSON.stringify({
            countryCode: "DE",
            q: "laptop",
            note: "a cheap laptop for a daughter who starts university",
            filters: { max: 1000 },
            maxPrice: 1000,
            inStock: true,
          }),
          toolOutput: "[]",
        },
      ],
      knownTools: ["product_search", "order_status"],
    });
    expect(draft.expectations).toContainEqual({
      type: "toolCalled",
      tool: "product_search",
      input: { countryCode: "DE", q: "laptop", maxPrice: 1000 },
    });
    // A tool the conversation used elsewhere but this answer did not: not called.
    expect(draft.expectations).toContainEqual({ type: "toolNotCalled", tool: "order_status" });
    expect(draft.expectations).not.toContainEqual({ type: "toolNotCalled", tool: "product_search" });
  });

  it("collects a conversation's tools in order of first use", () => {
    expect(
      toolsOfConversation([
        { usedTools: [{ tool: "b" }] },
        { usedTools: null },
        {},
        { usedTools: [{ tool: "a" }, { tool: "b" }] },
      ]),
    ).toEqual(["b", "a"]);
  });
});
