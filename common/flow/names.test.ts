import { describe, expect, it } from "vitest";
import { copyName, freshName, MAX_FLOW_NAME } from "./names";

describe("flow names", () => {
  it("marks a copy and keeps it within the limit", () => {
    expect(copyName("Support bot")).toBe("Support bot (copy)");
    const long = copyName("x".repeat(MAX_FLOW_NAME));
    expect(long).toHaveLength(MAX_FLOW_NAME);
    expect(long.endsWith(" (copy)")).toBe(true);
  });

  it("keeps a free name as it is", () => {
    expect(freshName("Refund approval", ["Product search agent"])).toBe("Refund approval");
  });

  it("numbers a name already taken, any case, past every number in use", () => {
    expect(freshName("Product search agent", ["product search agent"])).toBe("Product search agent (2)");
    expect(freshName("Product search agent", ["Product search agent", "Product search agent (2)"])).toBe(
      "Product search agent (3)",
    );
  });

  it("shortens a long taken name so the number still fits", () => {
    const name = "y".repeat(MAX_FLOW_NAME);
    const fresh = freshName(name, [name]);
    expect(fresh).toHaveLength(MAX_FLOW_NAME);
    expect(fresh.endsWith(" (2)")).toBe(true);
  });
});
