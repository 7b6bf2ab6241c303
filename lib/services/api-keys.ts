import type { PageRequest } from "@/common/schemas/pagination";
import { mapPage } from "../db/keyset";
import { AppError } from "@/common/errors";
import {
  countExistingChatflows,
  findApiKeyById,
  insertApiKey,
  listApiKeys,
  revokeApiKeyById,
} from "../db/queries/api-keys";
import { generateApiKey } from "../security/api-keys";
import type { Caller } from "@/common/access/callers";
import { actingRole, actingUserId, keyPermissionsForRole, mayAct, ownerFilter } from "@/common/access/permissions";
import { publishChange } from "../state";
import type { CreateApiKeyInput } from "@/common/schemas/api-key";

type ListedKey = NonNullable<Awaited<ReturnType<typeof findApiKeyById>>>;

/** The API's view of a key: never the key or its hash. */
export function toApiKeyDto(row: ListedKey) {
  const { chatflows, createdBy, createdById, ...rest } = row;
  return {
    ...rest,
    ownerId: createdById,
    owner: createdBy,
    chatflowIds: chatflows.map((c) => c.chatflowId),
    status: row.revokedAt ? "revoked" : "active",
  };
}

/** Keys newest first: admins see every key, builders their own. */
export async function listApiKeysDto(caller: Caller, page?: PageRequest) {
  return mapPage(await listApiKeys({ ownerId: ownerFilter(caller, "apikey.list"), page }), toApiKeyDto);
}

/**
 * Creates a key owned by the caller; the answer carries the key itself, which is never shown again.
 * A key never exceeds its owner: permissions the role lacks (a builder's `messages`) are 400, and a
 * builder may scope a key only to chatflows they own (others answer like unknown ones).
 */
export async function createApiKey(input: CreateApiKeyInput, caller: Caller) {
  const ownerId = actingUserId(caller);
  const role = actingRole(caller);
  if (!ownerId || !role) throw new AppError("forbidden", "API keys are created by signed-in users.");
  const allowed: string[] = keyPermissionsForRole(role);
  const refused = input.permissions.filter((p) => !allowed.includes(p));
  if (refused.length) {
    throw new AppError(
      "validation_failed",
      `body.permissions: a ${role} cannot hold a key with '${refused.join("', '")}' (admins only).`,
    );
  }
  const chatflowIds = [...new Set(input.chatflowIds)];
  const own = ownerFilter(caller, "chatflow.read");
  if (chatflowIds.length && (await countExistingChatflows({ ids: chatflowIds, ownerId: own })) !== chatflowIds.length) {
    throw new AppError("validation_failed", "body.chatflowIds: one or more chatflows do not exist.");
  }
  const { key, prefix, keyHash } = generateApiKey();
  const row = await insertApiKey({
    name: input.name,
    prefix,
    keyHash,
    permissions: [...new Set(input.permissions)],
    allChatflows: chatflowIds.length === 0,
    chatflowIds,
    createdById: ownerId,
  });
  await publishChange({ type: "apiKey.created", apiKeyId: row.id, prefix }); // a cached miss must not hide it
  return { ...toApiKeyDto(row), key };
}

/** Revokes a key: it answers 401 from then on. Revoking twice is fine; others' keys are 404. */
export async function revokeApiKey(id: string, caller: Caller) {
  const row = await findApiKeyById({ id });
  if (!row || !mayAct(caller, "apikey.revoke", row.createdById))
    throw new AppError("not_found", `API key ${id} not found.`);
  await revokeApiKeyById({ id });
  await publishChange({ type: "apiKey.revoked", apiKeyId: id, prefix: row.prefix });
  return toApiKeyDto((await findApiKeyById({ id }))!);
}
