import { describe, expect, it } from "vitest";
import { paramValueSchema, patternSentence } from "@/common/nodes/params";

describe("pattern messages", () => {
  it("say what a tool name or URL may be, in words, without the regular expression", () => {
    expect(patternSentence({ label: "Tool name", pattern: "^[A-Za-z0-9_-]{1,64}$" })).toBe(
      "Tool name may use letters, digits, - and _ only (1 to 64 characters, no spaces).",
    );
    expect(patternSentence({ label: "Tool name", pattern: "^[a-zA-Z0-9_-]{1,64}$" })).toMatch(/^Tool name may use/);
    expect(patternSentence({ label: "Base URL", pattern: "^https?://" })).toBe(
      "Base URL must start with http:// or https://.",
    );
    const r = paramValueSchema({
      kind: "param",
      name: "name",
      label: "Tool name",
      type: "string",
      pattern: "^[A-Za-z0-9_-]{1,64}$",
    } as never).safeParse("product search");
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe(
      "Tool name may use letters, digits, - and _ only (1 to 64 characters, no spaces).",
    );
  });
});
