import type { PageRequest } from "@/common/schemas/pagination";
import { AppError } from "@/common/errors";
import {
  bumpSessionVersion,
  countUsers,
  deleteUserTransferringOwned,
  findUserByEmail,
  findUserById,
  insertUser,
  listUsers,
  updatePasswordHash,
  updateUserRole,
} from "../db/queries/users";
import { claimUnownedChatflows } from "../db/queries/chatflows";
import { claimUnownedCredentials } from "../db/queries/credentials";
import { publishChange } from "../state";
import { hashPassword } from "../security/passwords";
import { isAcceptablePassword, PASSWORD_RULE } from "@/common/schemas/user";
import type { Role } from "../db/generated/enums";

/** Services are also called from start-up and scripts, not only through the zod-checked routes. */
function assertAcceptablePassword(password: string): void {
  if (!isAcceptablePassword(password)) {
    throw new AppError("validation_failed", PASSWORD_RULE, {
      details: [{ field: "password", message: PASSWORD_RULE }],
    });
  }
}

/** True until the first admin exists: the setup page is open only then. */
export async function needsSetup(): Promise<boolean> {
  return (await countUsers()) === 0;
}

/** Creates the first admin; refused once any user exists. Example flows loaded before become theirs. */
export async function setupFirstAdmin(input: { email: string; name: string; password: string }) {
  if (!(await needsSetup())) throw new AppError("conflict", "Setup is already done: sign in instead.");
  assertAcceptablePassword(input.password);
  const { password, ...rest } = input;
  const admin = await insertUser({ ...rest, passwordHash: await hashPassword(password), role: "admin" });
  await claimUnownedChatflows({ ownerId: admin.id });
  await claimUnownedCredentials({ ownerId: admin.id });
  return admin;
}

/** Adds a user (admins add builders or other admins). */
export async function createUser(input: { email: string; name: string; password: string; role: Role }) {
  if (await findUserByEmail({ email: input.email }))
    throw new AppError("conflict", `A user with e-mail ${input.email} already exists.`);
  assertAcceptablePassword(input.password);
  const { password, ...rest } = input;
  return insertUser({ ...rest, passwordHash: await hashPassword(password) });
}

/** Sets a user's password and ends all their sessions (a stolen cookie dies with the old password). */
export async function changePassword(userId: string, password: string) {
  assertAcceptablePassword(password);
  const { count } = await updatePasswordHash({ id: userId, passwordHash: await hashPassword(password) });
  if (!count) throw new AppError("not_found", `User ${userId} not found.`);
  return { changed: true };
}

/** Ends every session of a user (sign-out, role change): tokens issued before are refused. */
export async function endSessions(userId: string): Promise<void> {
  await bumpSessionVersion({ id: userId });
}

/** Every user without password hashes. */
export async function listUsersDto(page?: PageRequest) {
  return listUsers(page);
}

/**
 * Changes a user's role. A demoted admin's keys lose what builders may not do from the next
 * request on, and their chatflows rebuild with the credentials the new role may use (the key and
 * flow caches drop what was checked against the old role). An admin cannot demote themself.
 */
export async function changeUserRole(id: string, role: Role, actingUserId: string) {
  if (id === actingUserId) throw new AppError("bad_request", "You cannot change your own role.");
  if (!(await findUserById({ id }))) throw new AppError("not_found", `User ${id} not found.`);
  const user = await updateUserRole({ id, role });
  await publishChange({ type: "user.roleChanged", userId: id });
  await endSessions(id); // the studio was rendered for the old role: sign in again
  return user;
}

/**
 * Removes a user; an admin cannot remove themself. Their chatflows and credentials go to the acting
 * admin in the same transaction; their API keys are deleted with them (and stop at once).
 */
export async function deleteUser(id: string, actingUserId: string) {
  if (id === actingUserId) throw new AppError("bad_request", "You cannot delete your own account.");
  const { count } = await deleteUserTransferringOwned({ id, heirId: actingUserId });
  if (!count) throw new AppError("not_found", `User ${id} not found.`);
  await publishChange({ type: "user.deleted", userId: id });
  return { deleted: true, id };
}

/** On start: creates the admin from ADMIN_EMAIL / ADMIN_PASSWORD when there is no user yet. */
export async function ensureAdminFromEnv(env: { ADMIN_EMAIL?: string; ADMIN_PASSWORD?: string; ADMIN_NAME: string }) {
  if (!env.ADMIN_EMAIL || !env.ADMIN_PASSWORD || !(await needsSetup())) return null;
  return setupFirstAdmin({ email: env.ADMIN_EMAIL.toLowerCase(), name: env.ADMIN_NAME, password: env.ADMIN_PASSWORD });
}
