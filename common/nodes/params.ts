import { z } from "zod";
import { paramInputs, type NodeDefinition, type ParamInput } from "@/common/nodes/types";

/**
 * The zod schema of one node's parameter values, generated from its definition. Used by the canvas
 * forms, the graph validation and the override check. Lenient where saved JSON or form fields
 * commonly differ (numbers and booleans as strings, "" meaning "not set"), strict on everything else.
 */

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

function numberSchema(p: ParamInput) {
  let s = z.number();
  if (p.integer) s = s.int();
  if (p.min !== undefined) s = s.min(p.min);
  if (p.max !== undefined) s = s.max(p.max);
  const fromString = (v: unknown) =>
    typeof v === "string" && v.trim() !== "" && !Number.isNaN(Number(v)) ? Number(v) : v;
  return z.preprocess(fromString, s);
}

function booleanSchema() {
  const fromString = (v: unknown) => (v === "true" ? true : v === "false" ? false : v);
  return z.preprocess(fromString, z.boolean());
}

/**
 * What a person reads when a value does not fit the param's pattern: a sentence about their field,
 * never the regular expression (API callers find it in the node's definition, GET /api/v1/nodes).
 */
export function patternSentence(p: Pick<ParamInput, "label" | "pattern">): string {
  const label = p.label || "This field";
  if (p.pattern && /^\^\[a-z]*A-Z[a-z]*0-9_-\]\{1,(\d+)\}\$$/i.test(p.pattern)) {
    const max = /\{1,(\d+)\}/.exec(p.pattern)?.[1];
    return `${label} may use letters, digits, - and _ only (1 to ${max} characters, no spaces).`;
  }
  if (p.pattern === "^https?://") return `${label} must start with http:// or https://.`;
  if (p.pattern === "^(/[^/]*)*$")
    return `${label} must be a JSON pointer such as /items (or empty for the whole document).`;
  return `${label} is not in the expected form.`;
}

function stringSchema(p: ParamInput) {
  let s = z.string().max(p.maxLength ?? 1_000_000);
  if (p.pattern) s = s.regex(new RegExp(p.pattern), { error: patternSentence(p) });
  return s;
}

/** The zod schema of a single param value (without optional/default handling). */
export function paramValueSchema(p: ParamInput): z.ZodType {
  switch (p.type) {
    case "number":
      return numberSchema(p);
    case "boolean":
      return booleanSchema();
    case "options": {
      const names = (p.options ?? []).map((o) => o.name);
      return z.string().refine((v) => names.includes(v), `must be one of ${names.join(", ")}`);
    }
    case "json":
      return z.preprocess(
        (v) => {
          if (typeof v !== "string") return v;
          try {
            return JSON.parse(v);
          } catch {
            return v;
          }
        },
        z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())], { error: "must be a JSON object or array" }),
      );
    case "credential":
      return z.string().min(1).max(200);
    case "string":
      return stringSchema(p);
    default:
      // text, code, file: free text (a file param holds the file's text content or a data: URL)
      return z.string().max(5_000_000);
  }
}

/** Whether a param must be given a value (not optional and no default). */
export function isRequiredParam(p: ParamInput): boolean {
  return !p.optional && p.default === undefined;
}

const fieldSchemas = new WeakMap<ParamInput, z.ZodType>();

/**
 * One param's schema including "not set" handling: default applied, optional allowed. Built once per
 * param definition (validating a 300-node flow built thousands of zod schemas on every check).
 */
export function paramFieldSchema(p: ParamInput): z.ZodType {
  let schema = fieldSchemas.get(p);
  if (!schema) {
    schema = buildFieldSchema(p);
    fieldSchemas.set(p, schema);
  }
  return schema;
}

function buildFieldSchema(p: ParamInput): z.ZodType {
  const base = paramValueSchema(p);
  if (p.default !== undefined) return z.preprocess(emptyToUndefined, base.optional()).transform((v) => v ?? p.default);
  if (p.optional) return z.preprocess(emptyToUndefined, base.optional());
  return z.preprocess(emptyToUndefined, base);
}

/**
 * The zod object schema of a node's param values. Parsing applies defaults and drops unknown keys.
 */
export function paramsSchemaFor(def: NodeDefinition): z.ZodObject<Record<string, z.ZodType>> {
  const shape: Record<string, z.ZodType> = {};
  for (const p of paramInputs(def)) shape[p.name] = paramFieldSchema(p);
  return z.object(shape);
}
