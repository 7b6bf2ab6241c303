import { describe, expect, it } from "vitest";
import { testCaseBodySchema } from "@/common/schemas/chatflow-tests";
import { caseFromExchange, distinctiveWords, mainInputFields } from "./test-case-draft";

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
