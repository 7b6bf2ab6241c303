import { rule, type Action } from "../auth/permissions";
import type { ApiKeyPermission } from "../auth/caller";

// Caller types live in lib/auth so services need no import of lib/http; re-exported for routes.
export { API_KEY_PERMISSIONS } from "../auth/caller";
export type { ApiKeyPermission, UserCaller, ApiKeyCaller, AnonymousCaller, Caller } from "../auth/caller";
export { assertChatflowInScope, chatflowScope } from "../auth/permissions";

/** Who may call a route. Basic auth is always limited to admin users. */
export type AuthPolicy = {
  /** Signed-in studio users (any role unless `adminOnly`). */
  session?: boolean;
  /** HTTP Basic with an admin's email and password. */
  basicAdmin?: boolean;
  /** API keys holding this permission. */
  apiKey?: ApiKeyPermission;
  /** Only admins among users (and keys whose owner is an admin). */
  adminOnly?: boolean;
  /** No credentials needed (the handler decides, e.g. public chatflows). */
  anonymous?: boolean;
};

/** A route's policy, read from the permission table (lib/auth/permissions.ts). */
export function policyFor(action: Action): AuthPolicy {
  const r = rule(action);
  return {
    session: r.roles.admin !== "none" || r.roles.builder !== "none",
    basicAdmin: r.basic === true && r.roles.admin !== "none",
    apiKey: r.apiKey,
    adminOnly: r.roles.builder === "none",
    anonymous: r.anonymous === true,
  };
}
