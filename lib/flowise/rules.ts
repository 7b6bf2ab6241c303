import { parseDataUrl } from "@/common/files/data-url";
import { richTextToText } from "./rich-text";
import type { Convert, Converted, FlowiseMapping, InputRule } from "./types";

/** Builders for mappings (see ./types.ts for how to add one). */

export function defineMapping(mapping: FlowiseMapping): FlowiseMapping {
  return mapping;
}

/**
 * Maps to our param `to`, converted by `convert` (default: the value as is). `connections`: our
 * anchor receiving the Flowise edges into this input (and the nodes its value names as
 * `{{id.data.instance}}`), for inputs that are both a value and a connection target.
 */
export const param = (to: string, convert?: Convert, connections?: string): InputRule => ({
  kind: "param",
  to,
  convert,
  ...(connections ? { connections } : {}),
});

/** Maps a Flowise anchor to our anchor `to`. */
export const anchor = (to: string): InputRule => ({ kind: "anchor", to });

/**
 * Not imported: always (no `when`), or only for values `when` accepts (others are dropped with
 * `reason`). A `warning` is said in the answer whenever a value is ignored.
 */
export const ignore = (reason: string, when?: (value: unknown) => boolean, warning?: string): InputRule => ({
  kind: "ignore",
  reason,
  when,
  warning,
});

/** `when` for `ignore`: the value is one of these (strings compared trimmed, case-insensitive). */
export const oneOf =
  (...values: unknown[]) =>
  (value: unknown): boolean =>
    values.some((v) =>
      typeof v === "string" && typeof value === "string" ? v.toLowerCase() === value.trim().toLowerCase() : v === value,
    );

/** Flowise keeps unset inputs as "", null, [] or {}: those are not values. */
export function isUnset(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

/** A `{{nodeId.data.instance}}` reference (Flowise's anchor values), or undefined. */
export function parseReference(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return /^\s*\{\{\s*([^.{}\s]+)\.data\.instance\s*\}\}\s*$/.exec(value)?.[1];
}

// Converters. Flowise stores numbers and booleans typed or as strings, depending on the version.

export const toNumber: Convert = (value) => {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(n) ? { value: n } : { drop: `"${String(value)}" is not a number` };
};

export const toInteger: Convert = (value, ctx) => {
  const r = toNumber(value, ctx);
  if ("value" in r && !Number.isInteger(r.value)) return { drop: `"${String(value)}" is not a whole number` };
  return r;
};

export const toBoolean: Convert = (value) => {
  if (typeof value === "boolean") return { value };
  if (value === "true" || value === "false") return { value: value === "true" };
  return { drop: `"${String(value)}" is not true or false` };
};

/** Flowise fills `{{$vars.x}}` (its variables) and `{{$flow.x}}` (the run's state) into text; we have neither. */
const FLOWISE_VARIABLE = /\{\{\s*\$(vars|flow)\.[^}]*\}\}/;

export const toText: Convert = (value) => {
  if (typeof value === "number") return { value: String(value) };
  if (typeof value !== "string") return { drop: "is not text (it may come from a connection we cannot import)" };
  const variable = FLOWISE_VARIABLE.exec(value);
  if (variable) return { drop: `uses ${variable[0]}, a Flowise variable we have no equivalent of: write the value in` };
  return { value };
};

/** An http(s) URL (model base paths, spec links). */
export const toHttpUrl: Convert = (value) => {
  if (typeof value !== "string") return { drop: "is not a URL" };
  // An agentflow's tool settings are rich text: `<p>http://host/path</p>` is that URL.
  const s = richTextToText(value).trim();
  try {
    const u = new URL(s);
    if (u.protocol === "http:" || u.protocol === "https:") return { value: s };
  } catch {
    // falls through
  }
  return { drop: `"${s}" is not an http(s) URL` };
};

/** The one data: URL of a Flowise file input and its file name (Flowise appends `,filename:<name>`). */
function flowiseUpload(value: unknown): { url: string; name?: string } | { drop: string } {
  if (typeof value !== "string") return { drop: "is not a file" };
  let one = value.trim();
  if (one.startsWith("[")) {
    let list: unknown;
    try {
      list = JSON.parse(one);
    } catch {
      return { drop: "is not a file" };
    }
    if (!Array.isArray(list) || list.length !== 1 || typeof list[0] !== "string")
      return { drop: "holds several files; our node takes one" };
    one = list[0].trim();
  }
  if (one.startsWith("FILE-STORAGE::"))
    return { drop: "the file is kept in Flowise's storage, not in the export: upload it to the node again" };
  const name = /,filename:([^,]*)$/.exec(one)?.[1];
  const url = one.replace(/,filename:[^,]*$/, "");
  if (!parseDataUrl(url)) return { drop: "is not a data: URL of the file" };
  return { url, name };
}

/**
 * A Flowise file input → the file's text. Flowise keeps an upload as a data: URL followed by
 * `,filename:<name>`, several uploads as a JSON list of those, and newer versions a
 * `FILE-STORAGE::` reference to its own storage (not in the export).
 */
export const dataUrlText: Convert = (value) => {
  const upload = flowiseUpload(value);
  if ("drop" in upload) return upload;
  const url = parseDataUrl(upload.url)!;
  return { value: url.base64 ? Buffer.from(url.data, "base64").toString("utf8") : decodeURIComponent(url.data) };
};

/** A Flowise file input → our file param's value: `data:<type>;name=<file name>;base64,…` (common/files/data-url.ts). */
export const dataUrlFile: Convert = (value) => {
  const upload = flowiseUpload(value);
  if ("drop" in upload) return upload;
  if (!upload.name || /;name=/.test(upload.url)) return { value: upload.url };
  const [head, data] = [upload.url.slice(0, upload.url.indexOf(",")), upload.url.slice(upload.url.indexOf(",") + 1)];
  const withName = head.endsWith(";base64")
    ? `${head.slice(0, -";base64".length)};name=${encodeURIComponent(upload.name)};base64`
    : `${head};name=${encodeURIComponent(upload.name)}`;
  return { value: `${withName},${data}` };
};

/** A JSON value Flowise may keep as its text (metadata, separators). */
export const toJson: Convert = (value) => {
  if (typeof value !== "string") return typeof value === "object" ? { value } : { drop: "is not JSON" };
  try {
    return { value: JSON.parse(value) };
  } catch {
    return { drop: "is not valid JSON" };
  }
};

/** Flowise's `{{nodeId.data.instance}}` inside a text, anywhere (prompt values name chains so). */
const INSTANCE_REFERENCE = /\{\{\s*([^.{}\s]+)\.data\.instance\s*\}\}/g;

/** The node ids a text names as `{{nodeId.data.instance}}`, anywhere in it (or in a JSON object's values). */
export function referencesInside(value: unknown): string[] {
  const text = typeof value === "string" ? value : value && typeof value === "object" ? JSON.stringify(value) : "";
  return [...text.matchAll(INSTANCE_REFERENCE)].map((m) => m[1]);
}

/**
 * Flowise "Format Prompt Values" (a JSON object, or its text) → our promptValues. `{{question}}`
 * is what our prompts give variables without a value, so those entries are left out;
 * `{{chat_history}}` is kept; another node's output `{{llmChain_0.data.instance}}` becomes
 * `{{llmChain_0}}` (the chain connected to our prompt's "Chain outputs"); any other `{{…}}`
 * (flow state, variables) cannot be imported.
 */
export const promptValues: Convert = (value) => {
  let obj: unknown = value;
  if (typeof value === "string") {
    try {
      obj = JSON.parse(value);
    } catch {
      return { drop: "is not a JSON object" };
    }
  }
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return { drop: "is not a JSON object" };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === "string" && /^\s*\{\{\s*question\s*\}\}\s*$/.test(v)) continue;
    if (typeof v === "string" && /^\s*\{\{\s*chat_history\s*\}\}\s*$/.test(v)) {
      out[k] = "{{chat_history}}";
      continue;
    }
    const node = typeof v === "string" ? /^\s*\{\{\s*([^.{}\s]+)\.data\.instance\s*\}\}\s*$/.exec(v)?.[1] : undefined;
    if (node) {
      out[k] = `{{${node}}}`;
      continue;
    }
    if (typeof v === "string" && /\{\{.*\}\}/.test(v))
      return {
        drop: `the value of "${k}" (${v}) refers to something only Flowise provides (flow state or a variable)`,
      };
    out[k] = v;
  }
  return Object.keys(out).length ? { value: out } : { skip: true };
};

/** Applies a rule's converter (identity by default). */
export function convertWith(convert: Convert | undefined, value: unknown, ctx: Parameters<Convert>[1]): Converted {
  return convert ? convert(value, ctx) : { value };
}

/** An agentflow's embedded component (see ./types.ts): a model, a tool, one of a list. */
export const component = (
  to: string,
  config: string,
  what: string,
  opts: { list?: { name: string }; missing?: "refuse" | "warn" } = {},
): InputRule => ({ kind: "component", to, config, what, ...opts });
