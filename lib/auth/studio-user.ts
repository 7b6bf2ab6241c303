import { cookies } from "next/headers";
import { userFromSessionToken } from "./session-token";

/** The signed-in studio user for server components, or null (also after sign-out elsewhere). */
export async function getStudioUser() {
  const jar = await cookies();
  const token = jar.get("__Secure-next-auth.session-token")?.value ?? jar.get("next-auth.session-token")?.value;
  return token ? userFromSessionToken(token) : null;
}
