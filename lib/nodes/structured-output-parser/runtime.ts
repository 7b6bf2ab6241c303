import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import { jsonSchemaParser } from "../shared/output-parser";
import type { structuredOutputParserDefinition } from "./definition";

const TYPES: Record<string, Record<string, unknown>> = {
  string: { type: "string" },
  number: { type: "number" },
  boolean: { type: "boolean" },
  "string[]": { type: "array", items: { type: "string" } },
};

/** The JSON schema of the fields (all required), or why they are not a list of fields. */
export function fieldsSchema(fields: unknown, label: string): Record<string, unknown> {
  const list = Array.isArray(fields) ? fields : [];
  const bad = (why: string) => new AppError("invalid_graph", `Output parser "${label}": ${why}.`);
  if (list.length === 0) throw bad("the JSON structure names no field");
  const properties: Record<string, unknown> = {};
  for (const f of list) {
    const { property, type = "string", description } = (f ?? {}) as Record<string, unknown>;
    if (typeof property !== "string" || !property.trim()) throw bad("a field has no property name");
    const schema = TYPES[String(type)];
    if (!schema)
      throw bad(`field "${property}" has the type "${String(type)}"; use string, number, boolean or string[]`);
    properties[property.trim()] = {
      ...schema,
      ...(typeof description === "string" && description ? { description } : {}),
    };
  }
  return { type: "object", properties, required: Object.keys(properties) };
}

/** Builds the structuredOutputParser node's object. */
export const buildStructuredOutputParser: RuntimeOf<typeof structuredOutputParserDefinition> = async ({
  params,
  label,
  nodeId,
}) => jsonSchemaParser(`"${label}" (${nodeId})`, fieldsSchema(params.fields, label));
