/**
 * Flowise's Advanced Structured Output Parser keeps a zod schema as JavaScript text
 * (`z.object({ title: z.string(), … })`), which Flowise evaluates. We never evaluate it: this reads
 * the common forms with a small parser and gives the JSON schema they mean; anything else is
 * refused, naming the construct. Pure (no eval, no Function, no imports of the text).
 */

import type { Convert } from "./types";

type Json = Record<string, unknown>;
type Token = { kind: "id" | "num" | "str" | "punct"; text: string; value?: unknown };

export class ZodTextError extends Error {}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) i += 1;
    else if (src.startsWith("//", i)) i = src.indexOf("\n", i) < 0 ? src.length : src.indexOf("\n", i);
    else if (src.startsWith("/*", i)) {
      const end = src.indexOf("*/", i + 2);
      if (end < 0) throw new ZodTextError("a comment is not closed");
      i = end + 2;
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][\w$]*/.exec(src.slice(i))![0];
      out.push({ kind: "id", text: m });
      i += m.length;
    } else if (/^-?\d/.test(src.slice(i, i + 2))) {
      const m = /^-?\d+(\.\d+)?/.exec(src.slice(i))![0];
      out.push({ kind: "num", text: m, value: Number(m) });
      i += m.length;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      let s = "";
      while (j < src.length && src[j] !== c) {
        if (c === "`" && src.startsWith("${", j)) throw new ZodTextError("a template string with a placeholder");
        if (src[j] === "\\" && j + 1 < src.length) {
          const e = src[j + 1];
          s += e === "n" ? "\n" : e === "t" ? "\t" : e;
          j += 2;
        } else s += src[j++];
      }
      if (j >= src.length) throw new ZodTextError("a string is not closed");
      out.push({ kind: "str", text: s, value: s });
      i = j + 1;
    } else {
      // Any other character is a token of its own: the parser refuses it where it stands.
      out.push({ kind: "punct", text: c });
      i += 1;
    }
  }
  return out;
}

interface Field {
  schema: Json;
  optional: boolean;
}

class Reader {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(text?: string): Token | undefined {
    const t = this.tokens[this.at];
    return text === undefined || t?.text === text ? t : undefined;
  }

  next(expect?: string): Token {
    const t = this.tokens[this.at];
    if (!t) throw new ZodTextError(expect ? `expected "${expect}" at the end` : "the text ends too early");
    if (expect !== undefined && t.text !== expect) throw new ZodTextError(`expected "${expect}", found "${t.text}"`);
    this.at += 1;
    return t;
  }

  done(): boolean {
    return this.at >= this.tokens.length;
  }

  /** A literal argument: a string, a number or true/false. */
  literal(): unknown {
    const t = this.next();
    if (t.kind === "str" || t.kind === "num") return t.value;
    if (t.text === "true" || t.text === "false") return t.text === "true";
    throw new ZodTextError(`"${t.text}" where a plain value was expected`);
  }

  /** `(` items separated by commas `)`, a trailing comma allowed. */
  list<T>(close: string, item: () => T): T[] {
    const items: T[] = [];
    while (!this.peek(close)) {
      items.push(item());
      if (!this.peek(close)) this.next(",");
    }
    this.next(close);
    return items;
  }
}

function base(r: Reader): Field {
  const z = r.next();
  if (z.text !== "z") throw new ZodTextError(`"${z.text}": only z.… expressions are read`);
  r.next(".");
  const name = r.next().text;
  r.next("(");
  const done = (schema: Json) => {
    r.next(")");
    return { schema, optional: false };
  };
  switch (name) {
    case "string":
    case "number":
    case "boolean":
      return done({ type: name });
    case "array":
      return done({ type: "array", items: expression(r).schema });
    case "enum": {
      r.next("[");
      const values = r.list("]", () => r.literal());
      if (!values.every((v) => typeof v === "string")) throw new ZodTextError("z.enum() of values other than strings");
      return done({ type: "string", enum: values });
    }
    case "literal":
      return done({ const: r.literal() });
    case "object": {
      r.next("{");
      const fields = r.list("}", () => {
        const key = r.next();
        if (key.kind !== "id" && key.kind !== "str") throw new ZodTextError(`"${key.text}" as a property name`);
        r.next(":");
        return [key.text, expression(r)] as const;
      });
      return done({
        type: "object",
        properties: Object.fromEntries(fields.map(([k, f]) => [k, f.schema])),
        required: fields.filter(([, f]) => !f.optional).map(([k]) => k),
      });
    }
    default:
      throw new ZodTextError(`z.${name}() is not supported`);
  }
}

const BOUNDS: Record<string, Record<string, string>> = {
  min: { string: "minLength", array: "minItems", number: "minimum", integer: "minimum" },
  max: { string: "maxLength", array: "maxItems", number: "maximum", integer: "maximum" },
};

/** A z.… expression with its chained methods (.optional(), .describe("…"), .array(), .int(), .min(n), .max(n), …). */
function expression(r: Reader): Field {
  let field = base(r);
  while (r.peek(".")) {
    r.next(".");
    const method = r.next().text;
    r.next("(");
    const s = field.schema;
    if (method === "optional" || method === "nullish") field = { ...field, optional: true };
    else if (method === "array") field = { schema: { type: "array", items: s }, optional: false };
    else if (method === "int" && (s.type === "number" || s.type === "integer"))
      field.schema = { ...s, type: "integer" };
    else if (method === "describe") field.schema = { ...s, description: String(r.literal()) };
    else if (method === "default") field = { schema: { ...s, default: r.literal() }, optional: true };
    else if ((method === "email" || method === "url") && s.type === "string")
      field.schema = { ...s, format: method === "url" ? "uri" : "email" };
    else if ((method === "min" || method === "max") && BOUNDS[method][String(s.type)]) {
      const n = r.literal();
      if (typeof n !== "number") throw new ZodTextError(`.${method}() of something other than a number`);
      field.schema = { ...s, [BOUNDS[method][String(s.type)]]: n };
    } else throw new ZodTextError(`.${method}() is not supported here`);
    r.next(")");
  }
  return field;
}

/**
 * The JSON schema of a zod schema written as text (Flowise's Advanced Structured Output Parser).
 * Throws ZodTextError naming what is not one of the forms read.
 */
export function zodTextToJsonSchema(text: string): Json {
  const r = new Reader(tokenize(text));
  const { schema } = expression(r);
  if (r.peek(";")) r.next(";");
  if (!r.done()) throw new ZodTextError(`unexpected "${r.next().text}" after the schema`);
  return schema;
}

/** A zod schema written as text → its JSON schema, read (never evaluated); other forms are dropped by name. */
export const zodText: Convert = (value) => {
  if (typeof value !== "string") return { drop: "is not a zod schema as text" };
  try {
    return { value: zodTextToJsonSchema(value) };
  } catch (e) {
    if (e instanceof ZodTextError) return { drop: `the zod schema cannot be read without running it: ${e.message}` };
    throw e;
  }
};
