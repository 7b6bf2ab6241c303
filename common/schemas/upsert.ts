import { z } from "zod";

const nodeId = z.string().min(1).max(200);

/**
 * POST /api/v1/vector/upsert/{id} as JSON: `{ overrideConfig?, stopNodeId? }`. (Its multipart form
 * sends `files`, `returnSourceDocuments`, `stopNodeId` and overrides as text fields instead.)
 */
export const upsertJsonBodySchema = z.object({
  overrideConfig: z.looseObject({ returnSourceDocuments: z.boolean().optional() }).optional(),
  stopNodeId: z.union([nodeId, z.array(nodeId).min(1).max(50)]).optional(),
  /** Also accepted at the top level, as the multipart form sends it. */
  returnSourceDocuments: z.boolean().optional(),
});

export type UpsertJsonBody = z.infer<typeof upsertJsonBodySchema>;
