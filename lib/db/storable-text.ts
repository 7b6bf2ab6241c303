/**
 * Text PostgreSQL can store. A text column refuses NUL (U+0000), and jsonb refuses both the
 * `\u0000` escape and a lone UTF-16 surrogate (JSON.stringify writes one as a `\udXXX` escape).
 * Request bodies are checked at the edge (the HTTP layer's input-checks.ts), but text parsed out of
 * uploaded documents and text a model or a tool returns are not the caller's to fix, so they are
 * cleaned where they enter storage: NUL removed, lone surrogates replaced by U+FFFD.
 */

const NUL = /\u0000/g;
/** How JSON.stringify writes a NUL or a lone surrogate (a valid pair is written as is). */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Whether the string holds a UTF-16 surrogate without its pair (no UTF-8 form; jsonb refuses it). */
export function hasLoneSurrogate(text: string): boolean {
  return new RegExp(LONE_SURROGATE.source).test(text);
}

/** The string without NUL characters and with every lone surrogate replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(NUL, "").replace(LONE_SURROGATE, "\uFFFD");
}

/** A JSON value (as JSON.stringify would see it) whose every string and key is storable text. */
export function storableJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  const text = JSON.stringify(value);
  const parsed = JSON.parse(text) as unknown;
  return UNSTORABLE_ESCAPE.test(text) ? clean(parsed) : parsed;
}

/**
 * `JSON.stringify(storableJson(value))`, in one pass when nothing needs cleaning (the usual case):
 * JSON.stringify writes NUL and a lone surrogate as `\u0000` / `\udXXX` escapes, so text without
 * such an escape is already storable.
 */
export function storableJsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return UNSTORABLE_ESCAPE.test(text) ? JSON.stringify(storableJson(value)) : text;
}

function clean(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(clean);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [storableText(k), clean(v)]));
  }
  return value;
}
