import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";

const listed = {
  id: true,
  name: true,
  prefix: true,
  permissions: true,
  allChatflows: true,
  lastUsedAt: true,
  revokedAt: true,
  createdAt: true,
  createdById: true,
  createdBy: { select: { id: true, name: true, email: true } },
  chatflows: { select: { chatflowId: true } },
} as const;

/** A key with its scope and its owner's current role (a key never does more than its owner). */
export async function findApiKeyByPrefix({ prefix }: { prefix: string }) {
  return (await getDb()).apiKey.findUnique({
    where: { prefix },
    include: { chatflows: { select: { chatflowId: true } }, createdBy: { select: { id: true, role: true } } },
  });
}

/** Keys newest first; `ownerId` limits the list to one owner's keys. */
export async function listApiKeys({ ownerId, page }: { ownerId?: string; page?: PageRequest } = {}) {
  const keyset = keysetArgs(API_KEY_ORDER, page);
  const rows = await (await getDb()).apiKey.findMany({
    where: { AND: [ownerId ? { createdById: ownerId } : {}, keyset.where] },
    select: listed,
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, API_KEY_ORDER, page);
}

const API_KEY_ORDER: KeysetOrder = { list: "apikey", field: "createdAt", direction: "desc", kind: "date" };

export async function insertApiKey(input: {
  name: string;
  prefix: string;
  keyHash: string;
  permissions: string[];
  allChatflows: boolean;
  chatflowIds: string[];
  createdById: string | null;
}) {
  const { chatflowIds, ...data } = input;
  return (await getDb()).apiKey.create({
    data: { ...data, chatflows: { create: chatflowIds.map((chatflowId) => ({ chatflowId })) } },
    select: listed,
  });
}

export async function revokeApiKeyById({ id }: { id: string }) {
  return (await getDb()).apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
}

export async function findApiKeyById({ id }: { id: string }) {
  return (await getDb()).apiKey.findUnique({ where: { id }, select: listed });
}

export async function touchApiKey({ id }: { id: string }) {
  return (await getDb()).apiKey.update({ where: { id }, data: { lastUsedAt: new Date() }, select: { id: true } });
}

/** How many of `ids` exist (and, with `ownerId`, belong to that owner). */
export async function countExistingChatflows({ ids, ownerId }: { ids: string[]; ownerId?: string }) {
  return (await getDb()).chatflow.count({ where: { id: { in: ids }, ...(ownerId ? { ownerId } : {}) } });
}
