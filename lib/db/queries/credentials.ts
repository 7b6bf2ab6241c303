import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";

/** Fields listed: never the encrypted values. */
const listed = {
  id: true,
  name: true,
  type: true,
  ownerId: true,
  sharedWithBuilders: true,
  createdAt: true,
  updatedAt: true,
  owner: { select: { id: true, name: true, email: true } },
} as const;

/** Credentials without their values, newest first; with `ownerId`, that owner's and those shared with all builders. */
export async function listCredentials({ ownerId, page }: { ownerId?: string; page?: PageRequest } = {}) {
  const keyset = keysetArgs(CREDENTIAL_ORDER, page);
  const where = ownerId ? { OR: [{ ownerId }, { sharedWithBuilders: true }] } : {};
  const rows = await (await getDb()).credential.findMany({
    where: { AND: [where, keyset.where] },
    select: listed,
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, CREDENTIAL_ORDER, page);
}

const CREDENTIAL_ORDER: KeysetOrder = { list: "credentials", field: "createdAt", direction: "desc", kind: "date" };

/** Stores an (already encrypted) credential; answers without the values. */
export async function insertCredential({
  name,
  type,
  encrypted,
  ownerId,
}: {
  name: string;
  type: string;
  encrypted: string;
  ownerId?: string | null;
}) {
  return (await getDb()).credential.create({
    data: { name, type, encrypted, ...(ownerId ? { owner: { connect: { id: ownerId } } } : {}) },
    select: listed,
  });
}

/** The whole row, encrypted values included (server only). */
export async function findCredentialById({ id }: { id: string }) {
  return (await getDb()).credential.findUnique({ where: { id } });
}

/** Owner and sharing of the given credentials (what a permission check needs). */
export async function findCredentialAccess({ ids }: { ids: string[] }) {
  return (await getDb()).credential.findMany({
    where: { id: { in: ids } },
    select: { id: true, ownerId: true, sharedWithBuilders: true },
  });
}

/** Changes the given fields; answers without the values. */
export async function updateCredentialById({
  id,
  data,
}: {
  id: string;
  data: { name?: string; encrypted?: string; sharedWithBuilders?: boolean; ownerId?: string };
}) {
  return (await getDb()).credential.update({ where: { id }, data, select: listed });
}

export async function deleteCredentialById({ id }: { id: string }) {
  return (await getDb()).credential.deleteMany({ where: { id } });
}

/** Gives unowned credentials (stored before the first admin existed) to that admin. */
export async function claimUnownedCredentials({ ownerId }: { ownerId: string }) {
  return (await getDb()).credential.updateMany({ where: { ownerId: null }, data: { ownerId } });
}

/** Names of the given credentials (ids that are not UUIDs are skipped: they cannot exist). */
export async function findCredentialNames({ ids }: { ids: string[] }) {
  const uuids = ids.filter((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (!uuids.length) return [];
  return (await getDb()).credential.findMany({ where: { id: { in: uuids } }, select: { id: true, name: true } });
}
