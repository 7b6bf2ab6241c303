import { safeFileName } from "./names";

/**
 * `data:` URLs (RFC 2397), read one way everywhere: image and audio uploads, files saved in a flow
 * (the canvas writes binary files as `data:<mime>;name=<file name>;base64,…`), specs given as data
 * URLs. Browser-safe: no Buffer; callers decode the data.
 */

/** The parts of `data:[<type>][;<param>]*[;base64],<data>`. */
export interface DataUrl {
  /** The media type as written; "" when absent. */
  type: string;
  /** The parameters between the type and `;base64`, as written (`name=x.pdf`, or a bare word). */
  params: string[];
  base64: boolean;
  /** Everything after the first comma, not decoded. */
  data: string;
}

/** The parts of a `data:` URL, or undefined when the value is not one (no `data:` prefix or no comma). */
export function parseDataUrl(value: string): DataUrl | undefined {
  if (!value.startsWith("data:")) return undefined;
  const comma = value.indexOf(",");
  if (comma < 0) return undefined;
  const segments = value.slice(5, comma).split(";");
  const base64 = segments.length > 1 && segments[segments.length - 1] === "base64";
  return {
    type: segments[0],
    params: segments.slice(1, base64 ? -1 : undefined),
    base64,
    data: value.slice(comma + 1),
  };
}

const STRICT = { param: /^[^=]+=.+$/s, data: /^[A-Za-z0-9+/]*={0,2}$/ };
// A saved file's `name=` may be empty (an unnamed file) and its base64 may be wrapped in lines.
const SAVED = { param: /^[^=]+=/, data: /^[A-Za-z0-9+/\s]*={0,2}$/ };

/**
 * A base64 data URL with a media type and only `name=value` parameters, or undefined.
 * `strict` (uploads): values non-empty, nothing but base64 characters in the data.
 * `saved` (files saved in a flow): empty values and whitespace in the data allowed.
 */
export function parseBase64DataUrl(value: string, mode: "strict" | "saved" = "strict"): DataUrl | undefined {
  const url = parseDataUrl(value);
  if (!url?.type || !url.base64) return undefined;
  const rules = mode === "strict" ? STRICT : SAVED;
  return url.params.every((p) => rules.param.test(p)) && rules.data.test(url.data) ? url : undefined;
}

/** The raw value of a parameter (the first one of that name), or undefined. */
export function dataUrlParam(url: DataUrl, name: string): string | undefined {
  return url.params.find((p) => p.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** The file name a data URL carries (`;name=<percent-encoded>`), made safe (safeFileName); undefined when none. */
export function dataUrlFileName(url: DataUrl): string | undefined {
  const raw = dataUrlParam(url, "name");
  if (!raw) return undefined;
  try {
    return safeFileName(decodeURIComponent(raw), "") || undefined;
  } catch {
    return undefined;
  }
}

/** How many bytes the data of a base64 data URL decodes to, without decoding it (for display). */
export function base64DataSize(url: DataUrl): number {
  return Math.floor((url.data.replace(/[\s=]+/g, "").length * 3) / 4);
}
