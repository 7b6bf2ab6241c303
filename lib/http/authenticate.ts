import { AppError } from "@/common/errors";
import { findApiKeyByPrefix, touchApiKey } from "../db/queries/api-keys";
import { readSessionCookie, userFromSessionToken } from "../auth/session-token";
import { apiKeyMatches, apiKeyPrefix, hashApiKey } from "../security/api-keys";
import { apiKeyCache } from "../auth/key-cache";
import { keyPermissionsForRole, type AuthPolicy } from "@/common/access/permissions";
import { clientIp } from "../access/client-ip";
import { assertSignInAllowedFrom, recordFailedSignIn, signInWithPassword } from "../access/sign-in";
import type { Caller } from "@/common/access/callers";

const unauthorized = (message: string) => new AppError("unauthorized", message);
/** One answer for every wrong Basic pair, and for a builder's right one: no oracle for passwords. */
const BASIC_REFUSED = "Invalid email or password (HTTP Basic is for admin users).";

/** Compared against when no key row matches, so an unknown prefix costs the same hash compare. */
const DUMMY_KEY_HASH = hashApiKey("sy_00000000_dummy-key-that-matches-no-stored-hash-at-all");

/** The hash compare of key verification; a seam so tests can see it runs for every presented key. */
export const apiKeyVerifier = { matches: apiKeyMatches };

/** Resolves who is calling and checks it against the route's policy; throws 401/403. */
export async function authenticate(req: Request, policy: AuthPolicy): Promise<Caller> {
  const header = req.headers.get("authorization");
  if (header) {
    const [scheme, value = ""] = header.trim().split(/\s+/, 2);
    const s = scheme.toLowerCase();
    if (s === "bearer") return checkApiKeyPolicy(await callerFromApiKey(value), policy);
    if (s === "basic") {
      // Failed Basic sign-ins count against the address like next-auth's (lib/access/sign-in.ts).
      const ip = clientIp(req);
      await assertSignInAllowedFrom(ip);
      // Refused before the password is checked, so the answer says nothing about the password.
      if (!policy.basicAdmin) throw new AppError("forbidden", "This endpoint does not accept Basic authentication.");
      return checkUserPolicy(await callerFromBasic(ip, value), policy);
    }
    throw unauthorized(unsupportedScheme(scheme));
  }
  const sessionCaller = await callerFromSession(req);
  if (sessionCaller) return checkUserPolicy(sessionCaller, policy);
  if (policy.anonymous) return { kind: "anonymous" };
  throw unauthorized("Authentication required: send Authorization: Bearer <API key>, or sign in.");
}

/**
 * The 401 for a scheme we do not take. The scheme is named only when it looks like one (a short word):
 * a header holding the key alone ("Authorization: sy_…", Flowise's clients without `Bearer `) must
 * not have the secret sent back in the answer, where logs and proxies keep it.
 */
export function unsupportedScheme(scheme: string): string {
  const named = /^[A-Za-z][A-Za-z0-9-]{0,19}$/.test(scheme) && !scheme.toLowerCase().startsWith("sy_");
  return named
    ? `Unsupported Authorization scheme '${scheme}'. Use Bearer <API key> or Basic.`
    : "The Authorization header has no scheme we take (its value is not repeated here). Send Authorization: Bearer <API key>, or Basic.";
}

async function callerFromApiKey(key: string): Promise<Caller> {
  const prefix = apiKeyPrefix(key);
  const row = prefix
    ? (await apiKeyCache.get(prefix, async () => (await findApiKeyByPrefix({ prefix })) ?? false)) || null
    : null;
  // Always one hash compare (a dummy when no row matched): an unknown prefix takes the same work.
  const matches = apiKeyVerifier.matches(key, row?.keyHash ?? DUMMY_KEY_HASH);
  if (!row || !matches) throw unauthorized("Invalid API key.");
  if (row.revokedAt) throw unauthorized("This API key has been revoked.");
  // A key dies with its owner (deleted: CASCADE; ownerless rows from before owners are revoked).
  if (!row.createdBy) throw unauthorized("This API key has been revoked.");
  // lastUsedAt is informative: write it at most once a minute so keys cost no write per request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    row.lastUsedAt = new Date();
    void touchApiKey({ id: row.id }).catch(() => {});
  }
  const allowed: string[] = keyPermissionsForRole(row.createdBy.role);
  return {
    kind: "apiKey",
    key: {
      id: row.id,
      prefix: row.prefix,
      allChatflows: row.allChatflows,
      // Effective permissions: the key's, cut to what its owner's current role may do.
      permissions: row.permissions.filter((p) => allowed.includes(p)),
      chatflowIds: row.chatflows.map((c) => c.chatflowId),
      ownerId: row.createdBy.id,
      ownerRole: row.createdBy.role,
    },
  };
}

async function callerFromBasic(ip: string, encoded: string): Promise<Caller> {
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const sep = decoded.indexOf(":");
  if (sep < 1) {
    await recordFailedSignIn(ip);
    throw unauthorized("Malformed Basic credentials.");
  }
  const email = decoded.slice(0, sep).toLowerCase();
  const password = decoded.slice(sep + 1);
  const user = await signInWithPassword({ ip, email, password, door: "basic", accept: (u) => u.role === "admin" });
  if (!user) throw unauthorized(BASIC_REFUSED);
  const { id, name, role } = user;
  return { kind: "user", via: "basic", user: { id, email: user.email, name, role } };
}

async function callerFromSession(req: Request): Promise<Caller | null> {
  const raw = readSessionCookie(req.headers.get("cookie"))?.value;
  if (!raw) return null;
  // Checks the token's session version too: a cookie captured before sign-out is refused.
  const user = await userFromSessionToken(raw);
  return user ? { kind: "user", via: "session", user } : null;
}

function checkUserPolicy(caller: Caller, policy: AuthPolicy): Caller {
  if (caller.kind !== "user") return caller;
  if (caller.via === "basic") return caller; // admins only, on routes that take Basic: checked before

  if (!policy.session) throw new AppError("forbidden", "This endpoint needs an API key, not a studio session.");
  if (policy.adminOnly && caller.user.role !== "admin") throw new AppError("forbidden", "Admins only.");
  return caller;
}

function checkApiKeyPolicy(caller: Caller, policy: AuthPolicy): Caller {
  if (caller.kind !== "apiKey") return caller;
  if (!policy.apiKey) throw new AppError("forbidden", "API keys cannot use this endpoint.");
  if (!caller.key.permissions.includes(policy.apiKey)) {
    throw new AppError("forbidden", `This API key lacks the '${policy.apiKey}' permission.`);
  }
  if (policy.adminOnly && caller.key.ownerRole !== "admin") throw new AppError("forbidden", "Admins only.");
  return caller;
}
