import type { ParamInput } from "./types";

/** The languages the studio's code editor knows; `prompt` is plain text with wrapping. */
export type EditorLanguage = "yaml" | "json" | "prompt";

/**
 * Which code editor a param gets in the studio, or none (a plain field). An explicit `editor` hint
 * in the definition wins; otherwise `code` params (OpenAPI specs) are YAML (JSON reads as YAML too)
 * and `json` params are JSON.
 */
export function editorLanguageOf(p: Pick<ParamInput, "type" | "editor">): EditorLanguage | undefined {
  if (p.editor) return p.editor;
  if (p.type === "code") return "yaml";
  if (p.type === "json") return "json";
  return undefined;
}
