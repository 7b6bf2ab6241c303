import { defineMapping, ignore, param, promptValues } from "../rules";
import type { Convert } from "../types";

const QUESTION = /^\s*\{\{\s*question\s*\}\}\s*$/;

/**
 * Flowise's input variables (a JSON object or its text) → ours: like prompt values (a chain's
 * output `{{id.data.instance}}` becomes `{{id}}`, `{{chat_history}}` kept, flow state refused), but
 * `{{question}}` is kept too: a function's variable has no default.
 */
const inputVariables: Convert = (value, ctx) => {
  let obj: unknown = value;
  if (typeof value === "string") {
    try {
      obj = JSON.parse(value);
    } catch {
      return { drop: "is not a JSON object" };
    }
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return { drop: "is not a JSON object" };
  const entries = Object.entries(obj as Record<string, unknown>);
  const questions = entries.filter(([, v]) => typeof v === "string" && QUESTION.test(v));
  const rest = promptValues(Object.fromEntries(entries.filter((e) => !questions.includes(e))), ctx);
  if ("drop" in rest) return rest;
  const kept = { ...("value" in rest ? (rest.value as Record<string, unknown>) : {}) };
  for (const [k] of questions) kept[k] = "{{question}}";
  return Object.keys(kept).length ? { value: kept } : { skip: true };
};

/** Flowise "Custom JS Function" (chatflow) → ours: the code runs in lib/sandbox, never in the server's process. */
export const customFunction = defineMapping({
  flowise: "customFunction",
  type: "customFunction",
  inputs: {
    functionInputVariables: param("inputVariables", inputVariables, "chains"),
    functionName: ignore("the function name is only a label"),
    javascriptFunction: param("code", (v) => (typeof v === "string" ? { value: v } : { drop: "is not code" })),
  },
  outputs: { output: "output", EndingNode: "ending" },
});
