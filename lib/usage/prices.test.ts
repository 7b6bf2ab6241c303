import { describe, expect, it } from "vitest";
import { costOf, effectivePrices, priceFor } from "./prices";
import { estimateTokens } from "./tally";

const table = effectivePrices([{ model: "gpt-4o", inputPerMTok: 3, outputPerMTok: 12 }]);

describe("model prices", () => {
  it("match a provider's dated or suffixed name by its longest known prefix", () => {
    expect(priceFor("gpt-4o-mini-2024-07-18", table)?.model).toBe("gpt-4o-mini");
    expect(priceFor("gpt-4o-2024-08-06", table)?.model).toBe("gpt-4o");
    expect(priceFor("claude-3-5-sonnet-20241022", table)?.model).toBe("claude-3-5-sonnet");
    expect(priceFor("models/gemini-2.5-flash-lite", table)?.model).toBe("gemini-2.5-flash-lite");
    expect(priceFor("o3-mini", table)?.model).toBe("o3-mini");
    // A prefix must end at a dash: "gpt-4oxyz" is not gpt-4o.
    expect(priceFor("gpt-4oxyz", table)).toBeUndefined();
  });

  it("an admin's price replaces the default of its name", () => {
    expect(table.find((p) => p.model === "gpt-4o")).toEqual({
      model: "gpt-4o",
      inputPerMTok: 3,
      outputPerMTok: 12,
      source: "admin",
    });
  });

  it("cost: each model's tokens at its price; null when one has no price; 0 with no model call", () => {
    expect(costOf([{ model: "gpt-4o", promptTokens: 1_000_000, completionTokens: 500_000 }], table)).toBe(9);
    expect(
      costOf(
        [
          { model: "gpt-4o", promptTokens: 1000, completionTokens: 0 },
          { model: "my-local-llama", promptTokens: 10, completionTokens: 10 },
        ],
        table,
      ),
    ).toBeNull();
    expect(costOf([], table)).toBe(0);
  });

  it("estimates a token per 4 characters, rounding up", () => {
    expect([estimateTokens(0), estimateTokens(1), estimateTokens(8), estimateTokens(9)]).toEqual([0, 1, 2, 3]);
  });
});
