import { getDb } from "../client";
import type { Prisma } from "../generated/client";

/** IdempotencyRecord rows: one per caller and `Idempotency-Key` (lib/services/idempotency.ts). */

/** Inserts a running claim; throws Prisma's P2002 when the caller already holds this key. */
export async function insertIdempotencyClaim(data: {
  scope: string;
  key: string;
  fingerprint: string;
  expiresAt: Date;
}) {
  return (await getDb()).idempotencyRecord.create({ data: { ...data, state: "running" } });
}

export async function findIdempotencyRecord(args: { scope: string; key: string }) {
  return (await getDb()).idempotencyRecord.findUnique({ where: { scope_key: args } });
}

/** Stores the answer of a claim (matched by id: a claim taken over by another request is not overwritten). */
export async function completeIdempotencyRecord(args: {
  id: string;
  status: number;
  body: Uint8Array<ArrayBuffer>;
  headers: Prisma.InputJsonValue;
}) {
  const { id, ...data } = args;
  await (await getDb()).idempotencyRecord.updateMany({
    where: { id, state: "running" },
    data: { ...data, state: "done" },
  });
}

/** Deletes one record by id (a claim given up, or an expired row found on the way); missing is fine. */
export async function deleteIdempotencyRecord({ id }: { id: string }) {
  await (await getDb()).idempotencyRecord.deleteMany({ where: { id } });
}

/** Deletes every record past its expiry; the number removed. */
export async function deleteExpiredIdempotencyRecords({ now }: { now: Date }) {
  const { count } = await (await getDb()).idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
