/**
 * Chunk metadata as remote indexes accept it: strings, numbers, booleans and lists of strings
 * (Pinecone's rule, the strictest of them); anything else (nested objects, null) is kept as its JSON
 * text so it stays filterable by equality.
 */
export function flatMetadata(metadata: Record<string, unknown>): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (value === null || value === undefined) continue;
    if (typeof value === "string" || typeof value === "boolean") out[key] = value;
    else if (typeof value === "number") {
      if (Number.isFinite(value)) out[key] = value;
    } else if (Array.isArray(value) && value.every((v) => typeof v === "string")) out[key] = value as string[];
    else out[key] = JSON.stringify(value);
  }
  return out;
}
