import { AppError } from "@/common/errors";
import type { UpsertJsonBody } from "@/common/schemas/upsert";

/**
 * The two request shapes of POST /api/v1/vector/upsert/{id}, already parsed by the route, reduced
 * to one: JSON `{ overrideConfig?, stopNodeId? }` (common/schemas/upsert.ts), or a multipart form's
 * text fields `returnSourceDocuments`, `stopNodeId` and any other field read as an override (same
 * allow-list as prediction).
 */

export interface UpsertInput {
  overrideConfig: Record<string, unknown>;
  stopNodeIds?: string[];
  returnSourceDocuments: boolean;
}

const asList = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/** The upsert input of a JSON body (already validated with upsertJsonBodySchema). */
export function fromJsonBody(body: UpsertJsonBody): UpsertInput {
  const overrideConfig = { ...(body.overrideConfig ?? {}) };
  return {
    overrideConfig,
    stopNodeIds: typeof body.stopNodeId === "string" ? [body.stopNodeId] : body.stopNodeId,
    returnSourceDocuments: overrideConfig.returnSourceDocuments === true || body.returnSourceDocuments === true,
  };
}

/** The upsert input of a multipart form's text fields (one value, or several when repeated). */
export function fromMultipartFields(fields: Record<string, string | string[]>): UpsertInput {
  const { returnSourceDocuments, stopNodeId, ...rest } = fields;
  const flag = asList(returnSourceDocuments)?.at(-1);
  if (flag !== undefined && flag !== "true" && flag !== "false") {
    throw new AppError("validation_failed", 'returnSourceDocuments: must be "true" or "false".');
  }
  const stops = asList(stopNodeId)
    ?.flatMap((s) => s.split(","))
    .map((s) => s.trim())
    .filter(Boolean);
  const overrideConfig: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) overrideConfig[key] = Array.isArray(value) ? value.at(-1) : value;
  return { overrideConfig, stopNodeIds: stops?.length ? stops : undefined, returnSourceDocuments: flag === "true" };
}
