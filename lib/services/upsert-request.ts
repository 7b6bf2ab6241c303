import { z } from "zod";
import { AppError } from "../errors";
import { parseWith } from "../http/route";
import type { MultipartUpsert } from "./upsert-files";

/**
 * The two request shapes of POST /api/v1/vector/upsert/{id}, reduced to one: JSON
 * `{ overrideConfig?, stopNodeId? }`, or multipart with `files`, `returnSourceDocuments`,
 * `stopNodeId` and any other text field read as an override (same allow-list as prediction).
 */

const nodeId = z.string().min(1).max(200);

export const upsertJsonBodySchema = z.object({
  overrideConfig: z.looseObject({ returnSourceDocuments: z.boolean().optional() }).optional(),
  stopNodeId: z.union([nodeId, z.array(nodeId).min(1).max(50)]).optional(),
  /** Also accepted at the top level, as the multipart form sends it. */
  returnSourceDocuments: z.boolean().optional(),
});

export type UpsertJsonBody = z.infer<typeof upsertJsonBodySchema>;

export interface UpsertInput {
  overrideConfig: Record<string, unknown>;
  stopNodeIds?: string[];
  returnSourceDocuments: boolean;
}

const asList = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/** The upsert input of a JSON body (validated with the schema, 400 naming fields). */
export function fromJsonBody(raw: unknown): UpsertInput {
  const body = parseWith(upsertJsonBodySchema, raw, "body") as UpsertJsonBody;
  const overrideConfig = { ...(body.overrideConfig ?? {}) };
  return {
    overrideConfig,
    stopNodeIds: typeof body.stopNodeId === "string" ? [body.stopNodeId] : body.stopNodeId,
    returnSourceDocuments: overrideConfig.returnSourceDocuments === true || body.returnSourceDocuments === true,
  };
}

/** The upsert input of a multipart form's text fields. */
export function fromMultipartFields(fields: MultipartUpsert["fields"]): UpsertInput {
  const { returnSourceDocuments, stopNodeId, ...rest } = fields;
  const flag = asList(returnSourceDocuments)?.at(-1);
  if (flag !== undefined && flag !== "true" && flag !== "false") {
    throw new AppError("validation_failed", 'returnSourceDocuments: must be "true" or "false".');
  }
  const stops = asList(stopNodeId)?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  const overrideConfig: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) overrideConfig[key] = Array.isArray(value) ? value.at(-1) : value;
  return { overrideConfig, stopNodeIds: stops?.length ? stops : undefined, returnSourceDocuments: flag === "true" };
}
