/**
 * File names as we keep them: display names only, never storage paths (files are stored under
 * generated names, see lib/security/stored-files.ts). Browser-safe: the canvas shows the same name
 * the server stores.
 */

const MAX_NAME_LENGTH = 120;

/**
 * A display name with no path parts or odd characters: the last segment after `/` or `\`, every run
 * of characters other than letters, digits, marks, space, `.`, `-` and `_` (controls, bidi
 * overrides and other invisible format characters included) replaced by `_`, trimmed, at most 120
 * characters. `fallback` when nothing usable is left (empty, or only dots such as `..`).
 */
export function safeFileName(name: string, fallback = "upload"): string {
  const last = name.replace(/\\/g, "/").split("/").filter(Boolean).pop() ?? "";
  const cleaned = Array.from(last.replace(/[^\p{L}\p{N}\p{M}_.\- ]+/gu, "_").trim())
    .slice(0, MAX_NAME_LENGTH)
    .join("");
  return /^\.*$/.test(cleaned) ? fallback : cleaned;
}
