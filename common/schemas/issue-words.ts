import type { z } from "zod";

/** Where an input came from: names the field for API callers (`body.name`, `query.startDate`). */
export type InputPlace = "path" | "query" | "body";

/** One problem with an input, for API callers: where (`body.names.3`), zod's code and its raw message. */
export type ValidationDetail = { field: string; path: (string | number)[]; code: string; message: string };

const ACRONYMS: Record<string, string> = { url: "URL", id: "ID", api: "API", uri: "URI", csv: "CSV", json: "JSON" };

/** A field name as a person says it: `baseURL` → "Base URL", `startDate` → "Start date", `sessionId` → "Session ID". */
export function fieldLabel(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .split(/\s+/)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? (/^[A-Z0-9]+$/.test(w) && w.length > 1 ? w : w.toLowerCase()));
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What the issue is about: the last named key, with list positions said as "item n" ("Role (history item 2)"). */
function subject(path: PropertyKey[], where: InputPlace): string {
  const keys = path.filter((p): p is string | number => typeof p !== "symbol");
  const lastName = [...keys].reverse().find((k) => typeof k === "string") as string | undefined;
  if (lastName === undefined) return where === "query" ? "The query" : where === "path" ? "The address" : "The request";
  const at = keys.lastIndexOf(lastName);
  // A generic key says little alone: "status" of `leads` is "Leads status".
  const parent = keys[at - 1];
  // A key a person chose (a header name such as X-Token) is quoted as it is, after its map's name.
  const label =
    typeof parent === "string" && !/^[a-z][A-Za-z0-9_]*$/.test(lastName)
      ? `${fieldLabel(parent)} "${lastName}"`
      : GENERIC_KEYS.has(lastName) && typeof parent === "string"
        ? `${fieldLabel(parent)} ${fieldLabel(lastName).toLowerCase()}`
        : fieldLabel(lastName);
  const index = keys.slice(at + 1).find((k) => typeof k === "number");
  if (typeof index === "number") return `${label} (item ${index + 1})`;
  // An entry inside a list: say which list and which item.
  const listIndex = keys.slice(0, at).findLastIndex((k) => typeof k === "number");
  if (listIndex > 0 && typeof keys[listIndex - 1] === "string")
    return `${label} (${fieldLabel(keys[listIndex - 1] as string).toLowerCase()} item ${(keys[listIndex] as number) + 1})`;
  return label;
}

/** Keys that need their parent's name to mean something to a person. */
const GENERIC_KEYS = new Set(["status", "enabled", "value", "type", "data", "max", "min"]);

const sentence = (s: string) => (/[.!?]$/.test(s) ? s : `${s}.`);
/** zod's own wording ("Invalid input: …", "Too big: …"), which people should not have to read. */
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized|Expected)/;
/** A message already written as a sentence for people ("Tool name may use letters, digits, - and _ only."). */
const WRITTEN_SENTENCE = /^[A-Z][^:]*[.!?]$/;

/**
 * The sentence a person reads for one zod issue. Messages written for people on the schema (zod 4
 * `error`) are kept; short phrases like "must be a UUID" get the field's name in front ("Session ID
 * must be a UUID."); zod's defaults are said again in words from the issue's code and limits
 * ("Name is too long (at most 200 characters).").
 */
export function issueSentence(issue: z.core.$ZodIssue, where: InputPlace): string {
  const raw = issue.message;
  if (WRITTEN_SENTENCE.test(raw)) return raw;
  const who = subject(issue.path, where);
  if (!ZOD_DEFAULT.test(raw))
    return sentence(
      /^(must|is|are|has|have|may|should|cannot|can|needs?|was)\b/.test(raw) ? `${who} ${raw}` : `${who}: ${raw}`,
    );
  const i = issue as z.core.$ZodIssue & Record<string, unknown>;
  switch (issue.code) {
    case "too_big": {
      const max = String(i.maximum);
      if (i.origin === "string") return `${who} is too long (at most ${max} characters).`;
      if (i.origin === "array" || i.origin === "set") return `${who} has too many entries (at most ${max}).`;
      if (i.origin === "file") return `${who} is too large (at most ${max} bytes).`;
      return `${who} must be at most ${max}.`;
    }
    case "too_small": {
      const min = String(i.minimum);
      if (i.origin === "string")
        return Number(i.minimum) <= 1
          ? `${who} must not be empty.`
          : `${who} is too short (at least ${min} characters).`;
      if (i.origin === "array" || i.origin === "set")
        return Number(i.minimum) <= 1 ? `${who} needs at least one entry.` : `${who} needs at least ${min} entries.`;
      return `${who} must be at least ${min}.`;
    }
    case "invalid_type":
      if (/received undefined$/.test(raw)) return `${who} is required.`;
      return `${who} must be ${article(String(i.expected))}.`;
    case "invalid_format": {
      const format = String(i.format);
      if (format === "url") return `${who} is not a valid URL (like https://example.com).`;
      if (format === "uuid" || format === "guid") return `${who} is not a valid ID.`;
      if (format === "email") return `${who} is not a valid e-mail address.`;
      if (format === "datetime" || format === "date") return `${who} is not a valid date.`;
      if (format === "regex") return `${who} has characters or a form that is not allowed.`;
      return `${who} is not a valid ${format}.`;
    }
    case "invalid_value": {
      const values = (i.values as unknown[] | undefined)?.map((v) => JSON.stringify(v)) ?? [];
      return values.length === 1 ? `${who} must be ${values[0]}.` : `${who} must be one of ${values.join(", ")}.`;
    }
    case "unrecognized_keys": {
      const keys = (i.keys as string[] | undefined) ?? [];
      const where_ = who.startsWith("The ") ? who.toLowerCase() : who;
      return `${keys.length === 1 ? "Unknown field" : "Unknown fields"} in ${where_}: ${keys.join(", ")}.`;
    }
    case "invalid_union":
      return `${who} is not in a form that is accepted.`;
    default:
      return `${who} is not valid.`;
  }
}

function article(expected: string): string {
  const noun =
    expected === "object"
      ? "an object"
      : expected === "array"
        ? "a list"
        : expected === "int"
          ? "a whole number"
          : `a ${expected}`;
  return noun;
}

/** The error a person reads (one sentence per problem) and the details API callers use. */
export function describeIssues(
  issues: z.core.$ZodIssue[],
  where: InputPlace,
): { message: string; details: ValidationDetail[] } {
  const details = issues.map((i) => ({
    field: [where, ...i.path.map(String)].join("."),
    path: i.path.filter((p): p is string | number => typeof p !== "symbol"),
    code: i.code,
    message: i.message,
  }));
  const sentences = [...new Set(issues.map((i) => issueSentence(i, where)))];
  return { message: sentences.join(" "), details };
}
