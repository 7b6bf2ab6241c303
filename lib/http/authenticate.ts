import { AppError } from "../errors";
import { findApiKeyByPrefix, touchApiKey } from "../db/queries/api-keys";
import { findUserByEmail } from "../db/queries/users";
import { readSessionCookie, userFromSessionToken } from "../auth/session-token";
import { apiKeyMatches, apiKeyPrefix } from "../security/api-keys";
import { dummyPasswordHash, verifyPassword } from "../security/passwords";
import { enforceRateLimit, rateLimiter } from "./rate-limit";
import { clientIp } from "./client-ip";
import type { AuthPolicy, Caller } from "./callers";
import { TtlCache } from "../ttl-cache";

const unauthorized = (message: string) => new AppError("unauthorized", message);

type KeyRow = NonNullable<Awaited<ReturnType<typeof findApiKeyByPrefix>>>;
const holder = globalThis as unknown as { __switchyardKeys?: TtlCache<KeyRow | null> };
/** Key rows by prefix: a prediction should not cost a database read for its key. Revocation clears the entry. */
export const apiKeyCache = (holder.__switchyardKeys ??= new TtlCache<KeyRow | null>(5_000));

/** Resolves who is calling and checks it against the route's policy; throws 401/403. */
export async function authenticate(req: Request, policy: AuthPolicy): Promise<Caller> {
  const header = req.headers.get("authorization");
  if (header) {
    const [scheme, value = ""] = header.trim().split(/\s+/, 2);
    const s = scheme.toLowerCase();
    if (s === "bearer") return checkApiKeyPolicy(await callerFromApiKey(value), policy);
    if (s === "basic") return checkUserPolicy(await callerFromBasic(req, value), policy);
    throw unauthorized(`Unsupported Authorization scheme '${scheme}'. Use Bearer <API key> or Basic.`);
  }
  const sessionCaller = await callerFromSession(req);
  if (sessionCaller) return checkUserPolicy(sessionCaller, policy);
  if (policy.anonymous) return { kind: "anonymous" };
  throw unauthorized("Authentication required: send Authorization: Bearer <API key>, or sign in.");
}

async function callerFromApiKey(key: string): Promise<Caller> {
  const prefix = apiKeyPrefix(key);
  const row = prefix ? await apiKeyCache.get(prefix, () => findApiKeyByPrefix({ prefix })) : null;
  if (!row || !apiKeyMatches(key, row.keyHash)) throw unauthorized("Invalid API key.");
  if (row.revokedAt) throw unauthorized("This API key has been revoked.");
  // lastUsedAt is informative: write it at most once a minute so keys cost no write per request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    row.lastUsedAt = new Date();
    void touchApiKey({ id: row.id }).catch(() => {});
  }
  return {
    kind: "apiKey",
    key: {
      id: row.id, prefix: row.prefix, permissions: row.permissions, allChatflows: row.allChatflows,
      chatflowIds: row.chatflows.map((c) => c.chatflowId),
    },
  };
}

async function callerFromBasic(req: Request, encoded: string): Promise<Caller> {
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const sep = decoded.indexOf(":");
  if (sep < 1) throw unauthorized("Malformed Basic credentials.");
  const email = decoded.slice(0, sep).toLowerCase();
  const password = decoded.slice(sep + 1);
  const limitKey = `basic:${clientIp(req)}:${email}`;
  enforceRateLimit(limitKey, 10, 60_000, "failed sign-in attempts");
  const user = await findUserByEmail({ email });
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw unauthorized("Invalid email or password.");
  rateLimiter.reset(limitKey);
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
  if (caller.via === "basic") {
    if (caller.user.role !== "admin") throw new AppError("forbidden", "Basic authentication is for admin users only.");
    if (!policy.basicAdmin) throw new AppError("forbidden", "This endpoint does not accept Basic authentication.");
    return caller;
  }
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
  return caller;
}
