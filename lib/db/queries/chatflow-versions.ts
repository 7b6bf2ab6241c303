import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";
import type { Prisma } from "../generated/client";

/**
 * The ChatflowVersion table (immutable snapshots of a chatflow's graph and run settings) and the
 * chatflow columns that point into it (`version`: the latest, `publishedVersion`).
 */

/** What a version holds besides its number: the graph and the run settings. */
export type VersionContent = {
  graph: Prisma.InputJsonValue;
  overrideAllowList: string[];
  chatbotConfig: Prisma.InputJsonValue;
  speechToText: Prisma.InputJsonValue;
};

/** Who saved a version and why. */
export type VersionAuthor = { authorId: string | null; authorName: string; message: string };

/** Version list columns (no graph). */
const versionSummary = {
  id: true,
  version: true,
  createdAt: true,
  authorId: true,
  authorName: true,
  message: true,
} as const;

/** Versions of a chatflow, newest first, without their content. */
export async function listChatflowVersions({ chatflowId, page }: { chatflowId: string; page?: PageRequest }) {
  const keyset = keysetArgs(VERSION_ORDER, page);
  const rows = await (await getDb()).chatflowVersion.findMany({
    where: { AND: [{ chatflowId }, keyset.where] },
    select: versionSummary,
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, VERSION_ORDER, page);
}

const VERSION_ORDER: KeysetOrder = { list: "versions", field: "version", direction: "desc", kind: "number" };

/** One version with its content, or null. */
export async function findChatflowVersion({ chatflowId, version }: { chatflowId: string; version: number }) {
  return (await getDb()).chatflowVersion.findUnique({ where: { chatflowId_version: { chatflowId, version } } });
}

/**
 * Creates a chatflow and its version 1 in one transaction: a chatflow never exists without the
 * version its `version` column names.
 */
export async function insertChatflowWithVersion({
  data,
  author,
}: {
  data: Prisma.ChatflowCreateInput;
  author: VersionAuthor;
}) {
  return (await getDb()).$transaction(async (tx) => {
    const row = await tx.chatflow.create({ data: { ...data, version: 1 } });
    await tx.chatflowVersion.create({
      data: { chatflowId: row.id, version: 1, ...versionContentOf(row), ...author },
    });
    return row;
  });
}

/**
 * Saves changed chatflow columns. With `newVersion`, the row's content columns (graph, run
 * settings) change too: the version is bumped and the new content stored as that version, in the
 * same transaction (the row lock orders concurrent saves). With `expectedVersion`, nothing happens
 * unless the latest version is still that one (optimistic concurrency); returns null then.
 */
export async function updateChatflowWithVersion({
  id,
  data,
  expectedVersion,
  newVersion,
}: {
  id: string;
  data: Prisma.ChatflowUpdateInput;
  expectedVersion?: number;
  newVersion?: VersionAuthor;
}) {
  return (await getDb()).$transaction(async (tx) => {
    const { count } = await tx.chatflow.updateMany({
      where: { id, ...(expectedVersion === undefined ? {} : { version: expectedVersion }) },
      data: {
        ...(data as Prisma.ChatflowUpdateManyMutationInput),
        ...(newVersion ? { version: { increment: 1 } } : {}),
      },
    });
    if (!count) return null;
    const row = await tx.chatflow.findUniqueOrThrow({ where: { id } });
    if (newVersion) {
      await tx.chatflowVersion.create({
        data: { chatflowId: id, version: row.version, ...versionContentOf(row), ...newVersion },
      });
    }
    return row;
  });
}

/** Sets the published version; null when the chatflow is gone. */
export async function setPublishedVersion({ id, version }: { id: string; version: number | null }) {
  const db = await getDb();
  const { count } = await db.chatflow.updateMany({ where: { id }, data: { publishedVersion: version } });
  return count ? db.chatflow.findUnique({ where: { id } }) : null;
}

/** The content columns of a chatflow row (what a version snapshots). */
export function versionContentOf(row: {
  graph: unknown;
  overrideAllowList: string[];
  chatbotConfig: unknown;
  speechToText: unknown;
}): VersionContent {
  return {
    graph: row.graph as Prisma.InputJsonValue,
    overrideAllowList: row.overrideAllowList,
    chatbotConfig: row.chatbotConfig as Prisma.InputJsonValue,
    speechToText: row.speechToText as Prisma.InputJsonValue,
  };
}
