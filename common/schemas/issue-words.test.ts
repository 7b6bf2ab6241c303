import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssues, fieldLabel } from "./issue-words";

const words = (schema: z.ZodType, input: unknown, where: "body" | "query" | "path" = "body") => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error("expected a failure");
  return describeIssues(r.error.issues, where);
};

describe("fieldLabel", () => {
  it("says field names the way people do", () => {
    expect(fieldLabel("name")).toBe("Name");
    expect(fieldLabel("baseURL")).toBe("Base URL");
    expect(fieldLabel("startDate")).toBe("Start date");
    expect(fieldLabel("sessionId")).toBe("Session ID");
    expect(fieldLabel("max_tokens")).toBe("Max tokens");
  });
});

describe("describeIssues", () => {
  it("turns zod's defaults into sentences and keeps field, code and raw message in details", () => {
    const out = words(z.object({ name: z.string().max(200) }), { name: "x".repeat(201) });
    expect(out.message).toBe("Name is too long (at most 200 characters).");
    expect(out.details).toEqual([
      { field: "body.name", path: ["name"], code: "too_big", message: expect.stringMatching(/^Too big/) },
    ]);
  });

  it("names URLs, missing fields, unknown fields and list items in words", () => {
    expect(words(z.object({ data: z.object({ baseURL: z.url() }) }), { data: { baseURL: "nope" } }).message).toBe(
      "Base URL is not a valid URL (like https://example.com).",
    );
    expect(words(z.object({ question: z.string() }), {}).message).toBe("Question is required.");
    expect(words(z.strictObject({ a: z.string().optional() }), { b: 1 }).message).toBe(
      "Unknown field in the request: b.",
    );
    const role = words(z.object({ history: z.array(z.object({ role: z.enum(["a", "b"]) })) }), {
      history: [{ role: "a" }, { role: "c" }],
    });
    expect(role.message).toBe('Role (history item 2) must be one of "a", "b".');
    expect(role.details[0].field).toBe("body.history.1.role");
  });

  it("keeps messages written for people, and puts the field in front of short phrases", () => {
    const tool = z.object({
      name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "Tool name may use letters, digits, - and _ only." }),
    });
    expect(words(tool, { name: "a b" }).message).toBe("Tool name may use letters, digits, - and _ only.");
    expect(words(z.object({ limit: z.number().max(5, "must be at most 5") }), { limit: 9 }, "query").message).toBe(
      "Limit must be at most 5.",
    );
    // Never a regex or a field path in what a person reads.
    const raw = words(z.object({ name: z.string().regex(/^[a-z]+$/) }), { name: "A!" });
    expect(raw.message).toBe("Name has characters or a form that is not allowed.");
    expect(raw.message).not.toMatch(/body\.|\^|\$/);
  });
});
