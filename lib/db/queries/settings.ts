import { getDb } from "../client";
import type { Prisma } from "../generated/client";

/** A stored setting's value (undefined when it was never set). */
export async function findSetting({ key }: { key: string }) {
  return (await (await getDb()).setting.findUnique({ where: { key } }))?.value;
}

/**
 * Creates chatflows and records the setting `key` in one transaction: a one-time load (the example
 * flows) that lands whole or not at all, and only once (a second writer fails on the key).
 */
export async function insertChatflowsOnce({
  key,
  value,
  chatflows,
}: {
  key: string;
  value: Prisma.InputJsonValue;
  chatflows: Prisma.ChatflowUncheckedCreateInput[];
}) {
  const db = await getDb();
  await db.$transaction([
    ...chatflows.map((data) => db.chatflow.create({ data })),
    db.setting.create({ data: { key, value } }),
  ]);
}
