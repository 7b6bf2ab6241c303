import { describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { fieldsSchema } from "../structured-output-parser/runtime";
import { commaListParser, jsonSchemaParser } from "./output-parser";

describe("output parsers", () => {
  it("the CSV parser reads one line of comma-separated values and names what is wrong otherwise", () => {
    const p = commaListParser('"List" (csv_0)');
    expect(p.check(" a, b ,c ")).toEqual({ value: ["a", "b", "c"] });
    expect(p.check("1. a\n2. b")).toEqual({ problem: expect.stringContaining("several lines") });
    expect(p.check("  ")).toEqual({ problem: "the answer is empty" });
  });

  it("the structured parser's fields become a JSON schema; a fenced object is read and checked", () => {
    const schema = fieldsSchema(
      [
        { property: "answer", type: "string", description: "the answer" },
        { property: "tags", type: "string[]" },
      ],
      "Parser",
    );
    expect(schema).toEqual({
      type: "object",
      properties: {
        answer: { type: "string", description: "the answer" },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["answer", "tags"],
    });
    const p = jsonSchemaParser("Parser", schema);
    expect(p.check('Sure:\n```json\n{"answer":"x","tags":["a"]}\n```')).toEqual({
      value: { answer: "x", tags: ["a"] },
    });
    expect(p.check('{"answer":1}')).toEqual({ problem: expect.stringContaining("/answer must be string") });
    expect(p.check("no json here")).toEqual({ problem: "the answer holds no JSON object" });
  });

  it("refuses fields that are not a list of named, typed properties", () => {
    expect(() => fieldsSchema([], "P")).toThrow(AppError);
    expect(() => fieldsSchema([{ property: "a", type: "date" }], "P")).toThrow('field "a" has the type "date"');
    expect(() => fieldsSchema([{ type: "string" }], "P")).toThrow("no property name");
  });
});
