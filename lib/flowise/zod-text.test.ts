import { describe, expect, it } from "vitest";
import { zodTextToJsonSchema } from "./zod-text";

// Flowise's default example of the Advanced Structured Output Parser, as it stores it.
const FLOWISE_DEFAULT = `z.object({
    title: z.string(), // Title of the movie as a string
    yearOfRelease: z.number().int(), // Release year as an integer number,
    genres: z.enum([
        "Action", "Comedy", "Drama", "Fantasy", "Horror",
        "Mystery", "Romance", "Science Fiction", "Thriller", "Documentary"
    ]).array().max(2), // Array of genres, max of 2 from the defined enum
    shortDescription: z.string().max(500) // Short description, max 500 characters
})`;

describe("zodTextToJsonSchema (read, never evaluated)", () => {
  it("reads Flowise's default example", () => {
    expect(zodTextToJsonSchema(FLOWISE_DEFAULT)).toEqual({
      type: "object",
      properties: {
        title: { type: "string" },
        yearOfRelease: { type: "integer" },
        genres: {
          type: "array",
          items: { type: "string", enum: expect.arrayContaining(["Action", "Documentary"]) },
          maxItems: 2,
        },
        shortDescription: { type: "string", maxLength: 500 },
      },
      required: ["title", "yearOfRelease", "genres", "shortDescription"],
    });
  });

  it("reads optional, describe, arrays, booleans and nested objects", () => {
    expect(
      zodTextToJsonSchema(`z.object({
        'name': z.string().describe("the person's name"),
        age: z.number().optional(),
        tags: z.array(z.string()).min(1),
        address: z.object({ city: z.string(), main: z.boolean() }).optional(),
      });`),
    ).toEqual({
      type: "object",
      properties: {
        name: { type: "string", description: "the person's name" },
        age: { type: "number" },
        tags: { type: "array", items: { type: "string" }, minItems: 1 },
        address: {
          type: "object",
          properties: { city: { type: "string" }, main: { type: "boolean" } },
          required: ["city", "main"],
        },
      },
      required: ["name", "tags"],
    });
  });

  it("refuses what it does not read, naming the construct; code never runs", () => {
    expect(() => zodTextToJsonSchema("z.object({ a: z.string().transform((s) => s) })")).toThrow(
      ".transform() is not supported",
    );
    expect(() => zodTextToJsonSchema("z.union([z.string(), z.number()])")).toThrow("z.union() is not supported");
    expect(() => zodTextToJsonSchema('require("fs").readFileSync("/etc/passwd")')).toThrow(
      '"require": only z.… expressions are read',
    );
    expect(() => zodTextToJsonSchema("z.object({ a: z.string() }); process.exit(1)")).toThrow('unexpected "process"');
    expect(() => zodTextToJsonSchema("z.string().describe(`$" + "{process.env.SECRET}`)")).toThrow("template string");
    expect(() => zodTextToJsonSchema("z.object({ a: z.string()")).toThrow();
  });
});
