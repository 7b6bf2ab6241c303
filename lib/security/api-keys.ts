import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * API keys look like `sy_<8 hex>_<43 base64url>`: the `sy_<8 hex>` prefix is readable, unique and
 * stored in clear to find the row; only the SHA-256 of the whole key is stored.
 */
const KEY_PATTERN = /^(sy_[0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;

/** A new random key with its prefix and hash. The key itself is shown once and never stored. */
export function generateApiKey() {
  const prefix = `sy_${randomBytes(4).toString("hex")}`;
  const key = `${prefix}_${randomBytes(32).toString("base64url")}`;
  return { key, prefix, keyHash: hashApiKey(key) };
}

/** SHA-256 hex of a key. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The prefix of a well-formed key, or null. */
export function apiKeyPrefix(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

/** Compares a presented key with a stored hash in constant time. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const a = Buffer.from(hashApiKey(key), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
