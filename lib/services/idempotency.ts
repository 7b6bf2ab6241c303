import { AppError } from "@/common/errors";
import { decryptJson, encryptJson } from "../security/secrets";
import {
  completeIdempotencyRecord,
  deleteExpiredIdempotencyRecords,
  deleteIdempotencyRecord,
  findIdempotencyRecord,
  insertIdempotencyClaim,
} from "../db/queries/idempotency";
import type { Prisma } from "../db/generated/client";

/**
 * Idempotency keys (Stripe's rule, as docs/api.md states it): the first request with a caller's key
 * claims it and runs; its answer is stored for 24 hours and given back to a retry with the same key
 * and the same request, which runs nothing. The same key with another request is refused, and so is
 * a retry while the first one still runs. Claims live in the database, so every server process of
 * a deployment sees them; a claim unfinished past STALE_RUNNING_MS (its process died) may be taken
 * over. The HTTP side (reading the header, fingerprinting, replaying) is lib/http/idempotency.ts.
 */

/** How long a stored answer is replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/** A claim still "running" after this long is taken to be abandoned (its process stopped). */
const STALE_RUNNING_MS = 15 * 60_000;

/** A stored answer: status, body bytes and the headers worth replaying. */
export type StoredAnswer = { status: number; body: Uint8Array; headers: Record<string, string> };

/** What a request with a key does: run (holding claim `id`), or give back a stored answer. */
export type IdempotencyClaim = { kind: "run"; id: string } | { kind: "replay"; answer: StoredAnswer };

/**
 * Claims `key` for the caller `scope` and this request's `fingerprint`: `run` when no live claim
 * exists (expired rows are cleaned on the way), `replay` with the stored answer for the same request,
 * 409 `idempotency_key_reused` for another request, 409 `idempotency_in_progress` while it runs.
 */
export async function claimIdempotencyKey(args: {
  scope: string;
  key: string;
  fingerprint: string;
  now?: Date;
}): Promise<IdempotencyClaim> {
  const now = args.now ?? new Date();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const row = await insertIdempotencyClaim({
        scope: args.scope,
        key: args.key,
        fingerprint: args.fingerprint,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
      await deleteExpiredIdempotencyRecords({ now });
      return { kind: "run", id: row.id };
    } catch (e) {
      if ((e as { code?: unknown }).code !== "P2002") throw e;
    }
    const row = await findIdempotencyRecord({ scope: args.scope, key: args.key });
    if (!row) continue; // given up between our insert and read: claim again
    const abandoned = row.state === "running" && now.getTime() - row.createdAt.getTime() > STALE_RUNNING_MS;
    if (row.expiresAt <= now || abandoned) {
      await deleteIdempotencyRecord({ id: row.id });
      continue;
    }
    if (row.fingerprint !== args.fingerprint)
      throw new AppError(
        "idempotency_key_reused",
        "This Idempotency-Key was already used with another request (method, path or body) in the last 24 hours: use a new key for a new request.",
      );
    if (row.state !== "done" || row.status === null || row.body === null)
      throw new AppError(
        "idempotency_in_progress",
        "A request with this Idempotency-Key is still running: retry when it has finished to get its answer.",
        { headers: { "Retry-After": "1" } },
      );
    const body = openedBody(row.body);
    if (!body) {
      // Stored under another encryption key (DATA_DIR or ENCRYPTION_KEY changed): it cannot be replayed.
      await deleteIdempotencyRecord({ id: row.id });
      continue;
    }
    return { kind: "replay", answer: { status: row.status, body, headers: storedHeaders(row.headers) } };
  }
  throw new AppError(
    "idempotency_in_progress",
    "Requests with this Idempotency-Key are racing: retry in a moment to get the answer.",
    { headers: { "Retry-After": "1" } },
  );
}

/**
 * A stored answer's body is encrypted at rest like credentials (AES-256-GCM with the server's key):
 * some answers hold a secret shown once (a new API key, an MCP token), which must not sit in the
 * database in plain text for the 24 hours of a replay.
 */
function sealedBody(body: Uint8Array): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(Buffer.from(encryptJson(Buffer.from(body).toString("base64")), "utf8"));
}

function openedBody(stored: Uint8Array): Uint8Array | undefined {
  try {
    return Buffer.from(decryptJson<string>(Buffer.from(stored).toString("utf8")), "base64");
  } catch {
    return undefined;
  }
}

/** Stores the answer of the claim `id`, to be replayed for 24 hours. */
export async function storeIdempotentAnswer(id: string, answer: StoredAnswer): Promise<void> {
  await completeIdempotencyRecord({
    id,
    status: answer.status,
    body: sealedBody(answer.body),
    headers: answer.headers as Prisma.InputJsonValue,
  });
}

/** Gives a claim up (the request failed with 5xx, or was cut): a retry with the key runs again. */
export async function releaseIdempotencyKey(id: string): Promise<void> {
  await deleteIdempotencyRecord({ id });
}

function storedHeaders(value: unknown): Record<string, string> {
  if (!value || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}
