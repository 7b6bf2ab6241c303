import { z } from "zod";
import { AppError } from "../errors";
import { getDb } from "../db/client";
import type { ResolvedCredential } from "../security/credential-hosts";
import { decryptJson, encryptJson } from "../security/secrets";
import { credentialDataSchemas, type CredentialType } from "../schemas/credential";

const listed = { id: true, name: true, type: true, createdAt: true, updatedAt: true } as const;

function validateData(type: string, data: unknown): Record<string, unknown> {
  const schema = credentialDataSchemas[type as CredentialType];
  if (!schema) throw new AppError("validation_failed", `body.type: unknown credential type '${type}'.`);
  const parsed = (schema as z.ZodType<Record<string, unknown>>).safeParse(data);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `body.data.${i.path.join(".")}: ${i.message}`).join("; ");
    throw new AppError("validation_failed", msg);
  }
  return parsed.data;
}

/** Credentials without their values. */
export async function listCredentials() {
  return (await getDb()).credential.findMany({ select: listed, orderBy: { createdAt: "desc" } });
}

/** Stores a credential encrypted (AES-256-GCM); answers without the values. */
export async function createCredential(input: { name: string; type: CredentialType; data: unknown }) {
  const data = validateData(input.type, input.data);
  return (await getDb()).credential.create({
    data: { name: input.name, type: input.type, encrypted: encryptJson(data) },
    select: listed,
  });
}

/** Renames a credential and/or replaces its values. */
export async function updateCredential(id: string, input: { name?: string; data?: unknown }) {
  const db = await getDb();
  const row = await db.credential.findUnique({ where: { id } });
  if (!row) throw new AppError("not_found", `Credential ${id} not found.`);
  return db.credential.update({
    where: { id },
    data: {
      ...(input.name ? { name: input.name } : {}),
      ...(input.data !== undefined ? { encrypted: encryptJson(validateData(row.type, input.data)) } : {}),
    },
    select: listed,
  });
}

/** Deletes a credential. */
export async function deleteCredential(id: string) {
  const { count } = await (await getDb()).credential.deleteMany({ where: { id } });
  if (!count) throw new AppError("not_found", `Credential ${id} not found.`);
  return { deleted: true, id };
}

/**
 * Name, kind and decrypted values for the flow engine (server only; never returned by an endpoint).
 * The name lets a refusal say which credential would have gone to the wrong host.
 */
export async function resolveCredential(id: string): Promise<ResolvedCredential> {
  const row = z.uuid().safeParse(id).success ? await (await getDb()).credential.findUnique({ where: { id } }) : null;
  if (!row) throw new AppError("invalid_graph", `Credential ${id} does not exist; pick another one on the node.`);
  return { name: row.name, type: row.type, data: decryptJson<Record<string, unknown>>(row.encrypted) };
}
