import { describe, expect, it } from "vitest";
import { readToolStart, runningStepLabel, summariseToolInput } from "./tool-progress";

describe("summariseToolInput", () => {
  it("lists an object's fields as key: value, skipping empty ones", () => {
    expect(summariseToolInput({ q: "laptop", maxPrice: 1500, country: "DE", brand: "" })).toBe(
      "q: laptop, maxPrice: 1500, country: DE",
    );
  });

  it("shows strings and nested values on one line, cut to the maximum with an ellipsis", () => {
    expect(summariseToolInput("how long\n do refunds   take?")).toBe("how long do refunds take?");
    expect(summariseToolInput({ filter: { tags: ["a", "b"] } })).toBe('filter: {"tags":["a","b"]}');
    const long = summariseToolInput({ query: "x".repeat(200) }, 20);
    expect(long).toHaveLength(20);
    expect(long.endsWith("…")).toBe(true);
    expect(summariseToolInput(undefined)).toBe("");
  });
});

describe("readToolStart", () => {
  it("keeps tool, input and runId, and refuses data without a tool name", () => {
    expect(readToolStart({ tool: "product_search", input: { q: "x" }, runId: "r", extra: 1 })).toEqual({
      tool: "product_search",
      input: { q: "x" },
      runId: "r",
    });
    expect(readToolStart({ input: {} })).toBeUndefined();
    expect(readToolStart("product_search")).toBeUndefined();
    expect(readToolStart(null)).toBeUndefined();
  });

  it("labels a running step with the tool's name", () => {
    expect(runningStepLabel({ tool: "product_search" })).toBe("Calling product_search…");
  });
});
