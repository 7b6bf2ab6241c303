/**
 * The rules of a Condition step (Flowise's operations and names), on values already resolved. Pure.
 */

export interface ConditionRule {
  type: "string" | "number" | "boolean";
  value1: unknown;
  operation: string;
  value2: unknown;
}

/** Longest text a regex rule is tested against (a builder's pattern on a model's answer). */
const REGEX_INPUT_MAX = 20_000;

const isEmpty = (v: unknown) => v === undefined || v === null || String(v).trim() === "";

function toNumber(v: unknown): number {
  const n = typeof v === "number" ? v : Number.parseFloat(String(v ?? ""));
  return Number.isNaN(n) ? 0 : n;
}

function toBoolean(v: unknown): boolean {
  return v === true || String(v).trim().toLowerCase() === "true";
}

function stringRule(op: string, a: string, b: string): boolean {
  switch (op) {
    case "equal":
      return a === b;
    case "notEqual":
      return a !== b;
    case "contains":
      return a.includes(b);
    case "notContains":
      return !a.includes(b);
    case "startsWith":
      return a.startsWith(b);
    case "endsWith":
      return a.endsWith(b);
    case "regex":
      try {
        return new RegExp(b).test(a.slice(0, REGEX_INPUT_MAX));
      } catch {
        return false;
      }
    default:
      return false;
  }
}

function numberRule(op: string, a: number, b: number): boolean {
  switch (op) {
    case "equal":
      return a === b;
    case "notEqual":
      return a !== b;
    case "larger":
      return a > b;
    case "largerEqual":
      return a >= b;
    case "smaller":
      return a < b;
    case "smallerEqual":
      return a <= b;
    default:
      return false;
  }
}

/** Whether a rule holds. */
export function ruleHolds(rule: ConditionRule): boolean {
  if (rule.operation === "isEmpty") return isEmpty(rule.value1);
  if (rule.operation === "notEmpty") return !isEmpty(rule.value1);
  if (rule.type === "number") {
    if (isEmpty(rule.value1)) return false;
    return numberRule(rule.operation, toNumber(rule.value1), toNumber(rule.value2));
  }
  if (rule.type === "boolean") {
    const [a, b] = [toBoolean(rule.value1), toBoolean(rule.value2)];
    return rule.operation === "notEqual" ? a !== b : a === b;
  }
  return stringRule(rule.operation, String(rule.value1 ?? "").trim(), String(rule.value2 ?? "").trim());
}
