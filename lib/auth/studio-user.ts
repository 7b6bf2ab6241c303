import { cookies } from "next/headers";
import { SESSION_COOKIES, userFromSessionToken } from "./session-token";

/** The signed-in studio user for server components, or null (also after sign-out elsewhere). */
export async function getStudioUser() {
  const jar = await cookies();
  const token = SESSION_COOKIES.map((name) => jar.get(name)?.value).find((value) => value !== undefined);
  return token ? userFromSessionToken(token) : null;
}
