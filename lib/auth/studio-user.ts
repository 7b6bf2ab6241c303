import { cookies } from "next/headers";
import { decode } from "next-auth/jwt";
import { findUserById } from "../db/queries/users";
import { sessionSecret } from "../security/secrets";

/** The signed-in studio user for server components, or null. */
export async function getStudioUser() {
  const jar = await cookies();
  const token = jar.get("__Secure-next-auth.session-token")?.value ?? jar.get("next-auth.session-token")?.value;
  if (!token) return null;
  const payload = await decode({ token, secret: sessionSecret() }).catch(() => null);
  return payload?.sub ? findUserById({ id: payload.sub }) : null;
}
