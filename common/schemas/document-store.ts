import { z } from "zod";
import { graphSchema } from "./graph";

/**
 * Document stores over the API (Flowise's /api/v1/document-store routes, for what we support). A
 * store's graph holds its loaders (with their saved files or URLs), a splitter, embeddings and one
 * vector or keyword store node: the same nodes and param checks as a chatflow's.
 */

const name = z.string().trim().min(1).max(200);
const description = z.string().max(2000);

export const createDocumentStoreSchema = z.object({
  name,
  description: description.optional(),
  graph: graphSchema,
});

export const updateDocumentStoreSchema = z
  .object({ name: name.optional(), description: description.optional(), graph: graphSchema.optional() })
  .refine((v) => Object.keys(v).length > 0, { message: "give name, description or graph" });

export const documentStoreStatusSchema = z.enum(["empty", "upserted", "stale"]);

export const documentStoreResponseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    status: documentStoreStatusSchema,
    ownerId: z.string().nullable(),
    graph: graphSchema,
    /** The store node's type and id in the graph (the chunks' collection). */
    storeNode: z.object({ nodeId: z.string(), type: z.string(), storeType: z.enum(["vector", "keyword"]) }),
    chunks: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "DocumentStore" });

export const documentStoreListSchema = z.array(documentStoreResponseSchema.omit({ graph: true }));

export const previewDocumentStoreSchema = z.object({
  /** How many chunks to show (Flowise's previewChunkCount). */
  previewChunkCount: z.number().int().min(1).max(500).default(20),
});

const chunkSchema = z.object({ pageContent: z.string(), metadata: z.record(z.string(), z.unknown()) });

export const documentStorePreviewSchema = z.object({
  chunks: z.array(chunkSchema),
  totalChunks: z.number().int(),
  totalChars: z.number().int(),
});

export const documentStoreUpsertResultSchema = z.object({
  numAdded: z.number().int(),
  numUpdated: z.number().int(),
  numSkipped: z.number().int(),
  numDeleted: z.number().int(),
});

export const queryDocumentStoreSchema = z.object({
  query: z.string().trim().min(1).max(10_000),
});

export const documentStoreQueryResultSchema = z.object({
  timeTaken: z.number(),
  docs: z.array(chunkSchema.extend({ id: z.string(), score: z.number() })),
});

export type CreateDocumentStoreInput = z.infer<typeof createDocumentStoreSchema>;
export type UpdateDocumentStoreInput = z.infer<typeof updateDocumentStoreSchema>;
