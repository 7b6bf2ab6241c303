import type { Caller } from "@/common/access/callers";
import { getStudioUser } from "@/lib/auth/studio-user";

/** Who opens the full-page chat: the signed-in studio user, or an anonymous visitor. */
export async function chatPageCaller(): Promise<Caller> {
  const user = await getStudioUser();
  return user ? { kind: "user", via: "session", user } : { kind: "anonymous" };
}
