import { AppError } from "../errors";
import { bumpSessionVersion, countUsers, deleteUserById, findUserByEmail, insertUser, listUsers, updatePasswordHash } from "../db/queries/users";
import { hashPassword } from "../security/passwords";
import { isAcceptablePassword, PASSWORD_RULE } from "../schemas/user";
import type { Role } from "../db/generated/enums";

/** Services are also called from start-up and scripts, not only through the zod-checked routes. */
function assertAcceptablePassword(password: string): void {
  if (!isAcceptablePassword(password)) {
    throw new AppError("validation_failed", PASSWORD_RULE, { details: [{ field: "password", message: PASSWORD_RULE }] });
  }
}

/** True until the first admin exists: the setup page is open only then. */
export async function needsSetup(): Promise<boolean> {
  return (await countUsers()) === 0;
}

/** Creates the first admin; refused once any user exists. */
export async function setupFirstAdmin(input: { email: string; name: string; password: string }) {
  if (!(await needsSetup())) throw new AppError("conflict", "Setup is already done: sign in instead.");
  assertAcceptablePassword(input.password);
  const { password, ...rest } = input;
  return insertUser({ ...rest, passwordHash: await hashPassword(password), role: "admin" });
}

/** Adds a user (admins add builders or other admins). */
export async function createUser(input: { email: string; name: string; password: string; role: Role }) {
  if (await findUserByEmail({ email: input.email })) throw new AppError("conflict", `A user with e-mail ${input.email} already exists.`);
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
export async function listUsersDto() {
  return listUsers();
}

/** Removes a user; an admin cannot remove themself. */
export async function deleteUser(id: string, actingUserId: string) {
  if (id === actingUserId) throw new AppError("bad_request", "You cannot delete your own account.");
  const { count } = await deleteUserById({ id });
  if (!count) throw new AppError("not_found", `User ${id} not found.`);
  return { deleted: true, id };
}

/** On start: creates the admin from ADMIN_EMAIL / ADMIN_PASSWORD when there is no user yet. */
export async function ensureAdminFromEnv(env: { ADMIN_EMAIL?: string; ADMIN_PASSWORD?: string; ADMIN_NAME: string }) {
  if (!env.ADMIN_EMAIL || !env.ADMIN_PASSWORD || !(await needsSetup())) return null;
  return setupFirstAdmin({ email: env.ADMIN_EMAIL.toLowerCase(), name: env.ADMIN_NAME, password: env.ADMIN_PASSWORD });
}
