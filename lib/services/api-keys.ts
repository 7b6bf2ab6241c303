import { AppError } from "../errors";
import { countExistingChatflows, findApiKeyById, insertApiKey, listApiKeys, revokeApiKeyById } from "../db/queries/api-keys";
import { generateApiKey } from "../security/api-keys";
import type { Caller } from "../http/callers";
import { apiKeyCache } from "../http/authenticate";
import type { CreateApiKeyInput } from "../schemas/api-key";

type ListedKey = NonNullable<Awaited<ReturnType<typeof findApiKeyById>>>;

/** The API's view of a key: never the key or its hash. */
export function toApiKeyDto(row: ListedKey) {
  const { chatflows, ...rest } = row;
  return { ...rest, chatflowIds: chatflows.map((c) => c.chatflowId), status: row.revokedAt ? "revoked" : "active" };
}

/** Every key, newest first. */
export async function listApiKeysDto() {
  return (await listApiKeys()).map(toApiKeyDto);
}

/** Creates a key; the answer carries the key itself, which is never shown again. */
export async function createApiKey(input: CreateApiKeyInput, caller: Caller) {
  const chatflowIds = [...new Set(input.chatflowIds)];
  if (chatflowIds.length && (await countExistingChatflows({ ids: chatflowIds })) !== chatflowIds.length) {
    throw new AppError("validation_failed", "body.chatflowIds: one or more chatflows do not exist.");
  }
  const { key, prefix, keyHash } = generateApiKey();
  const row = await insertApiKey({
    name: input.name, prefix, keyHash, permissions: [...new Set(input.permissions)],
    allChatflows: chatflowIds.length === 0, chatflowIds,
    createdById: caller.kind === "user" ? caller.user.id : null,
  });
  return { ...toApiKeyDto(row), key };
}

/** Revokes a key: it answers 401 from then on. Revoking twice is fine. */
export async function revokeApiKey(id: string) {
  const row = await findApiKeyById({ id });
  if (!row) throw new AppError("not_found", `API key ${id} not found.`);
  await revokeApiKeyById({ id });
  apiKeyCache.delete(row.prefix);
  return toApiKeyDto((await findApiKeyById({ id }))!);
}
