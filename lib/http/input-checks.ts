import type { ZodType } from "zod";
import { hasLoneSurrogate } from "../db/storable-text";
import { AppError } from "@/common/errors";

/** Deepest nesting of arrays and objects accepted in a JSON body (graphs nest about 6 deep). */
export const MAX_JSON_DEPTH = 64;

/**
 * Refuses JSON text nested deeper than `maxDepth` before it is parsed: a 3,000-deep object parses
 * fine but overflows the stack of whatever walks it later (zod, Prisma, the flow builder).
 */
export function assertJsonDepth(text: string, where = "body", maxDepth = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth)
        throw new AppError("bad_request", `${where}: JSON is nested deeper than ${maxDepth} levels.`);
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
}

/**
 * Refuses a NUL character or a lone surrogate (a `\ud800` escape without its pair) in any string
 * or key of a parsed value, naming the field. PostgreSQL cannot store NUL in text, nor either in
 * jsonb, so without this the request fails at the database write, after the model was already
 * called. The value must already be depth-checked.
 */
export function assertNoNul(value: unknown, where: string): void {
  if (typeof value === "string") {
    if (value.includes("\u0000")) throw new AppError("bad_request", `${where}: must not contain a NUL character.`);
    if (hasLoneSurrogate(value))
      throw new AppError(
        "bad_request",
        `${where}: must not contain a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape).`,
      );
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      assertNoNul(v, `${where}.${i}`);
    });
    return;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes("\u0000")) throw new AppError("bad_request", `${where}: a key must not contain a NUL character.`);
      if (hasLoneSurrogate(k))
        throw new AppError("bad_request", `${where}: a key must not contain a lone UTF-16 surrogate.`);
      assertNoNul(v, `${where}.${k}`);
    }
  }
}

/**
 * The query parameter names a query schema declares: the keys of its z.object, looking through
 * refinements, transforms and optional wrappers. Throws for a schema it cannot read, so a route
 * never silently accepts every key.
 */
export function declaredQueryKeys(schema: ZodType | undefined): string[] {
  if (!schema) return [];
  let def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
  for (let hops = 0; hops < 10; hops++) {
    if (def.type === "object" && def.shape) return Object.keys(def.shape);
    const next = def.type === "pipe" ? def.in : def.innerType;
    if (!next) break;
    def = next._zod.def;
  }
  throw new Error(`Query schema of type '${def.type}' has no readable keys: use a z.object.`);
}

type ZodDef = {
  type: string;
  shape?: Record<string, unknown>;
  in?: { _zod: { def: ZodDef } };
  innerType?: { _zod: { def: ZodDef } };
};

/**
 * The query string as an object, refusing parameters the route does not declare (400 naming them:
 * an ignored filter on a DELETE would widen what it removes), repeated ones and NUL characters.
 */
export function readQuery(url: URL, allowed: readonly string[]): Record<string, string> {
  const unknown = new Set<string>();
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) {
    if (!allowed.includes(key)) {
      unknown.add(key);
      continue;
    }
    if (key in query) throw new AppError("validation_failed", `query.${key}: given more than once.`);
    if (value.includes("\u0000")) throw new AppError("bad_request", `query.${key}: must not contain a NUL character.`);
    query[key] = value;
  }
  if (unknown.size) {
    const names = [...unknown].map((k) => `'${k.replace(/[^\x20-\x7e]/g, "?").slice(0, 40)}'`).join(", ");
    const accepted = allowed.length ? `accepted: ${allowed.join(", ")}` : "this route takes none";
    throw new AppError(
      "validation_failed",
      `Unknown query parameter${unknown.size > 1 ? "s" : ""} ${names} (${accepted}).`,
      {
        details: [...unknown].map((k) => ({ field: `query.${k.slice(0, 100)}`, message: "is not a known parameter" })),
      },
    );
  }
  return query;
}
