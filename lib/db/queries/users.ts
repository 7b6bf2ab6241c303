import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";
import type { Role } from "../generated/enums";

/** Public fields of a user; the password hash never leaves this module except for sign-in checks. */
const publicUser = { id: true, email: true, name: true, role: true, createdAt: true } as const;

export async function countUsers() {
  return (await getDb()).user.count();
}

export async function findUserByEmail({ email }: { email: string }) {
  return (await getDb()).user.findUnique({ where: { email: email.toLowerCase() } });
}

export async function findUserById({ id }: { id: string }) {
  return (await getDb()).user.findUnique({ where: { id }, select: publicUser });
}

/** A user with the session version their session token must carry (see lib/auth/session-token.ts). */
/** Whether a user with this id exists. */
export async function userExists({ id }: { id: string }): Promise<boolean> {
  return (await (await getDb()).user.count({ where: { id } })) > 0;
}

/** A user's role (null when there is no such user). */
export async function findUserRole({ id }: { id: string }): Promise<Role | null> {
  return (await (await getDb()).user.findUnique({ where: { id }, select: { role: true } }))?.role ?? null;
}

/** The id of the first admin (the oldest), or null before setup. */
export async function findFirstAdminId(): Promise<string | null> {
  const admin = await (await getDb()).user.findFirst({
    where: { role: "admin" },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  return admin?.id ?? null;
}

export async function findSessionUserById({ id }: { id: string }) {
  return (await getDb()).user.findUnique({ where: { id }, select: { ...publicUser, sessionVersion: true } });
}

/** Ends every session of a user: tokens carrying the previous version are refused from now on. */
export async function bumpSessionVersion({ id }: { id: string }) {
  return (await getDb()).user.updateMany({ where: { id }, data: { sessionVersion: { increment: 1 } } });
}

/** Sets a new password hash and ends the user's sessions in the same write. */
export async function updatePasswordHash({ id, passwordHash }: { id: string; passwordHash: string }) {
  return (await getDb()).user.updateMany({ where: { id }, data: { passwordHash, sessionVersion: { increment: 1 } } });
}

export async function listUsers(page?: PageRequest) {
  const keyset = keysetArgs(USER_ORDER, page);
  const rows = await (await getDb()).user.findMany({
    where: keyset.where,
    select: publicUser,
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, USER_ORDER, page);
}

const USER_ORDER: KeysetOrder = { list: "users", field: "createdAt", direction: "asc", kind: "date" };

export async function insertUser(input: { email: string; name: string; passwordHash: string; role: Role }) {
  return (await getDb()).user.create({ data: { ...input, email: input.email.toLowerCase() }, select: publicUser });
}

/** Deletes a user after handing their chatflows and credentials to `heirId`, in one transaction (keys CASCADE). */
export async function deleteUserTransferringOwned({ id, heirId }: { id: string; heirId: string }) {
  return (await getDb()).$transaction(async (tx) => {
    await tx.chatflow.updateMany({ where: { ownerId: id }, data: { ownerId: heirId } });
    await tx.credential.updateMany({ where: { ownerId: id }, data: { ownerId: heirId } });
    return tx.user.deleteMany({ where: { id } });
  });
}

export async function updateUserRole({ id, role }: { id: string; role: Role }) {
  return (await getDb()).user.update({ where: { id }, data: { role }, select: publicUser });
}
