/**
 * JSON text with every object's keys sorted, so equal data gives equal text whatever the key order:
 * the record manager compares chunk metadata with it and the flow cache keys override variants by it.
 * Otherwise exactly JSON.stringify: `undefined` (and function) fields are left out, `undefined` in
 * an array becomes null, `toJSON` applies (a Date is its ISO string). So `{ a: 1, b: undefined }`
 * equals `{ a: 1 }`, as it does once stored in the database or sent as a request body. Top-level
 * `undefined` gives "null" (JSON.stringify would return no text at all).
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, sortKeys) ?? "null";
}

/** JSON.stringify calls this after `toJSON`, for every value; objects come back with sorted keys. */
function sortKeys(_key: string, value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
