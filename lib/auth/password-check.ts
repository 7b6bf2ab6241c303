import { findUserByEmail } from "../db/queries/users";
import { dummyPasswordHash, verifyPassword } from "../security/passwords";

/**
 * The user with this e-mail and password, or null. Always one hash compare (against a dummy hash
 * when no user has the e-mail), so an unknown e-mail answers no faster than a wrong password.
 * Shared by next-auth's sign-in (lib/auth/options.ts) and HTTP Basic (lib/http/authenticate.ts).
 */
export async function userWithPassword(email: string, password: string) {
  const user = email ? await findUserByEmail({ email }) : null;
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  return user && ok ? user : null;
}
