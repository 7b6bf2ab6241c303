import { headers } from "next/headers";
import { readSessionCookie, userFromSessionToken } from "./session-token";

/** The signed-in studio user for server components, or null (also after sign-out elsewhere). */
export async function getStudioUser() {
  const token = readSessionCookie((await headers()).get("cookie"))?.value;
  return token ? userFromSessionToken(token) : null;
}
