import type { ToolStart } from "@/common/schemas/prediction-stream";

/**
 * Live tool progress, shared by the studio test chat and the embed widget (framework-free, no zod):
 * a `toolStart` event becomes a running step ("Calling product_search… query: laptop") until the
 * answer's `usedTools` arrives and shows the finished calls instead.
 */

const MAX_SUMMARY = 80;

function scalar(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean" || v === null) return String(v);
  return JSON.stringify(v) ?? "";
}

/** A tool's input in one short line: `key: value, …` for an object, the value itself otherwise. */
export function summariseToolInput(input: unknown, max = MAX_SUMMARY): string {
  let text: string;
  if (input && typeof input === "object" && !Array.isArray(input)) {
    text = Object.entries(input as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== "")
      .map(([k, v]) => `${k}: ${scalar(v)}`)
      .join(", ");
  } else text = input === undefined ? "" : scalar(input);
  text = text.replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The words of a running step: "Calling product_search…". */
export function runningStepLabel(start: Pick<ToolStart, "tool">): string {
  return `Calling ${start.tool}…`;
}

/** A `toolStart` event's data, checked by hand (the widget bundles no zod); undefined when it is not one. */
export function readToolStart(data: unknown): ToolStart | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const { tool, input, runId } = data as Record<string, unknown>;
  if (typeof tool !== "string") return undefined;
  return { tool, input, ...(typeof runId === "string" ? { runId } : {}) };
}
