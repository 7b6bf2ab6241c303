import { AppError } from "../errors";
import type { Role } from "../db/generated/enums";

/** API-key permissions; a key holds one or more. */
export const API_KEY_PERMISSIONS = ["predict", "upsert", "chatflows", "messages", "domains"] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

export type UserCaller = { kind: "user"; via: "session" | "basic"; user: { id: string; email: string; name: string; role: Role } };
export type ApiKeyCaller = {
  kind: "apiKey";
  key: { id: string; prefix: string; permissions: string[]; allChatflows: boolean; chatflowIds: string[] };
};
export type AnonymousCaller = { kind: "anonymous" };
export type Caller = UserCaller | ApiKeyCaller | AnonymousCaller;

/** Who may call a route. Basic auth is always limited to admin users. */
export type AuthPolicy = {
  /** Signed-in studio users (any role unless `adminOnly`). */
  session?: boolean;
  /** HTTP Basic with an admin's email and password. */
  basicAdmin?: boolean;
  /** API keys holding this permission. */
  apiKey?: ApiKeyPermission;
  /** Only admins among users. */
  adminOnly?: boolean;
  /** No credentials needed (the handler decides, e.g. public chatflows). */
  anonymous?: boolean;
};

/** Throws 403 unless the caller may use this chatflow (keys can be scoped to chosen chatflows). */
export function assertChatflowInScope(caller: Caller, chatflowId: string): void {
  if (caller.kind !== "apiKey" || caller.key.allChatflows) return;
  if (!caller.key.chatflowIds.includes(chatflowId)) {
    throw new AppError("forbidden", "This API key is not allowed to use this chatflow.");
  }
}

/** The chatflow ids a caller is limited to, or undefined for all. */
export function chatflowScope(caller: Caller): string[] | undefined {
  return caller.kind === "apiKey" && !caller.key.allChatflows ? caller.key.chatflowIds : undefined;
}
