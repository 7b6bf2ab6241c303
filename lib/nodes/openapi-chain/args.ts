import { AppError } from "@/common/errors";
import type { JsonSchema, Operation } from "./spec";

/**
 * Checks the arguments a model chose for an operation against the spec before any request is made:
 * required parameters, types (integers given as digit strings are accepted and converted), enums
 * and numeric bounds. Unknown arguments are dropped so a model cannot add query parameters.
 */

interface Problem {
  param: string;
  message: string;
}

type Checked = { ok: true; value: unknown } | { ok: false; message: string };

function checkScalar(schema: JsonSchema, value: unknown): Checked {
  const type = schema.type;
  if (type === "integer" || type === "number") {
    const n = typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== "number" || !Number.isFinite(n))
      return { ok: false, message: `must be ${type === "integer" ? "an integer" : "a number"}` };
    if (type === "integer" && !Number.isInteger(n)) return { ok: false, message: "must be an integer" };
    if (typeof schema.minimum === "number" && n < schema.minimum)
      return { ok: false, message: `must be at least ${schema.minimum}` };
    if (typeof schema.maximum === "number" && n > schema.maximum)
      return { ok: false, message: `must be at most ${schema.maximum}` };
    return { ok: true, value: n };
  }
  if (type === "boolean") {
    const b = value === "true" ? true : value === "false" ? false : value;
    return typeof b === "boolean" ? { ok: true, value: b } : { ok: false, message: "must be true or false" };
  }
  if (typeof value === "string" || typeof value === "number") return { ok: true, value: String(value) };
  if (type === undefined && typeof value !== "object") return { ok: true, value };
  return { ok: false, message: `must be a ${type ?? "scalar"}` };
}

function checkValue(schema: JsonSchema, value: unknown): Checked {
  if (schema.type === "array") {
    const items = (schema.items ?? {}) as JsonSchema;
    const list = Array.isArray(value) ? value : [value];
    const out: unknown[] = [];
    for (const item of list) {
      const r = checkValue(items, item);
      if (!r.ok) return { ok: false, message: `has an item that ${r.message}` };
      out.push(r.value);
    }
    return { ok: true, value: out };
  }
  if (schema.type === "object") {
    return typeof value === "object" && value !== null
      ? { ok: true, value }
      : { ok: false, message: "must be an object" };
  }
  const r = checkScalar(schema, value);
  if (r.ok && Array.isArray(schema.enum) && !schema.enum.includes(r.value)) {
    return { ok: false, message: `must be one of ${schema.enum.join(", ")} (got ${JSON.stringify(value)})` };
  }
  return r;
}

/** Validated, converted arguments for `op`; throws AppError("validation_failed") listing each problem. */
export function validateOperationArgs(op: Operation, rawArgs: unknown): Record<string, unknown> {
  const args = typeof rawArgs === "object" && rawArgs !== null ? (rawArgs as Record<string, unknown>) : {};
  const problems: Problem[] = [];
  const out: Record<string, unknown> = {};
  for (const p of op.params) {
    const value = args[p.name];
    if (value === undefined || value === null || value === "") {
      if (p.required) problems.push({ param: p.name, message: "is required" });
      continue;
    }
    const r = checkValue(p.schema, value);
    if (r.ok) out[p.name] = r.value;
    else problems.push({ param: p.name, message: r.message });
  }
  if (op.body) {
    const body = args.requestBody;
    if (body === undefined && op.body.required) problems.push({ param: "requestBody", message: "is required" });
    else if (body !== undefined) out.requestBody = body;
  }
  if (problems.length > 0) {
    const list = problems.map((p) => `${p.param} ${p.message}`).join("; ");
    throw new AppError("validation_failed", `The arguments chosen for ${op.operationId} are not valid: ${list}.`, {
      details: problems,
    });
  }
  return out;
}
