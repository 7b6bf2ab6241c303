import { z } from "zod";

/** Credential kinds and the fields each holds. Values are encrypted at rest and never sent back. */
export const credentialDataSchemas = {
  openai: z.object({ apiKey: z.string().min(1).max(500), baseURL: z.url().optional() }).strict(),
  anthropic: z.object({ apiKey: z.string().min(1).max(500), baseURL: z.url().optional() }).strict(),
  httpHeaders: z.record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/, "must be a header name"), z.string().max(4000)),
} as const;

export const CREDENTIAL_TYPES = Object.keys(credentialDataSchemas) as (keyof typeof credentialDataSchemas)[];
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

export const createCredentialSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    type: z.enum(CREDENTIAL_TYPES as [CredentialType, ...CredentialType[]]),
    data: z.record(z.string(), z.unknown()),
  })
  .strict();

/** PUT /api/v1/credentials/{id}: `sharedWithBuilders` and `ownerId` are for admins only (403 otherwise). */
export const updateCredentialSchema = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    sharedWithBuilders: z.boolean().optional(),
    ownerId: z.uuid({ error: "must be a user UUID" }).optional(),
  })
  .strict();
