import { createCipheriv, createDecipheriv, randomBytes, createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "../env";

/**
 * The server's secret material. SECRETS_KEY / NEXTAUTH_SECRET win when set; otherwise a random
 * secret is created once in the data directory (mode 600) so a fresh install needs no setup.
 */
function dataDirSecret(): string {
  const file = path.resolve(getEnv().DATA_DIR, "server-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("hex");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return fs.readFileSync(file, "utf8").trim(); // another process won the race
    }
  }
}

let key: Buffer | undefined;

/** The 32-byte AES key for credentials at rest. */
function encryptionKey(): Buffer {
  if (key) return key;
  const configured = getEnv().SECRETS_KEY;
  if (configured && /^[0-9a-f]{64}$/i.test(configured)) key = Buffer.from(configured, "hex");
  else
    key = createHash("sha256")
      .update(`switchyard-credentials:${configured ?? dataDirSecret()}`)
      .digest();
  return key;
}

/** The secret next-auth signs sessions with. */
export function sessionSecret(): string {
  return getEnv().NEXTAUTH_SECRET ?? createHash("sha256").update(`switchyard-session:${dataDirSecret()}`).digest("hex");
}

/** AES-256-GCM: base64(iv | tag | ciphertext) of the JSON value. */
export function encryptJson(value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

/** Reverses encryptJson; throws when the data was tampered with or the key changed. */
export function decryptJson<T = unknown>(encoded: string): T {
  const raw = Buffer.from(encoded, "base64");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  return JSON.parse(text) as T;
}
