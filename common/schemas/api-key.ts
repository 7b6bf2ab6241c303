import { z } from "zod";
import { API_KEY_PERMISSIONS } from "../access/callers";

export const createApiKeySchema = z
  .object({
    name: z.string().trim().min(1, "is required").max(100),
    permissions: z.array(z.enum(API_KEY_PERMISSIONS)).min(1).default(["predict", "upsert"]),
    /** Omit or leave empty for every chatflow; list ids to scope the key. */
    chatflowIds: z
      .array(z.uuid({ error: "must be a chatflow UUID" }))
      .max(1000)
      .default([]),
  })
  .strict();

export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;
