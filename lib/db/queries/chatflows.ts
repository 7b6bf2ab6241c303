import { keysetArgs, pageFrom, type KeysetOrder } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";
import { getDb } from "../client";
import type { ChatflowType, Prisma } from "../generated/client";

/** Fields listed without the (possibly large) graph. */
export const chatflowSummary = {
  id: true,
  name: true,
  description: true,
  type: true,
  version: true,
  publishedVersion: true,
  isPublic: true,
  createdAt: true,
  updatedAt: true,
  ownerId: true,
  owner: { select: { id: true, name: true, email: true } },
} as const;

/** Summaries newest first; `ids` and `ownerId` narrow the list (a key's scope, a builder's own). */
/** Chatflows list last saved first. */
export const CHATFLOW_ORDER: KeysetOrder = { list: "chatflows", field: "updatedAt", direction: "desc", kind: "date" };

export async function listChatflows({
  ids,
  ownerId,
  type,
  page,
}: {
  ids?: string[];
  ownerId?: string;
  type?: ChatflowType;
  page?: PageRequest;
} = {}) {
  const keyset = keysetArgs(CHATFLOW_ORDER, page);
  const rows = await (await getDb()).chatflow.findMany({
    where: {
      AND: [
        { ...(ids ? { id: { in: ids } } : {}), ...(ownerId ? { ownerId } : {}), ...(type ? { type } : {}) },
        keyset.where,
      ],
    },
    select: chatflowSummary,
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, CHATFLOW_ORDER, page);
}

/** The graph and speech-to-text settings of these chatflows (what their credentials are read from). */
export async function findChatflowGraphs({ ids }: { ids: string[] }) {
  return (await getDb()).chatflow.findMany({
    where: { id: { in: ids } },
    select: { id: true, graph: true, speechToText: true },
  });
}

export async function findChatflowById({ id }: { id: string }) {
  return (await getDb()).chatflow.findUnique({ where: { id } });
}

export async function insertChatflow({ data }: { data: Prisma.ChatflowCreateInput }) {
  return (await getDb()).chatflow.create({ data });
}

/**
 * Saves changed fields and bumps the version. With `expectedVersion`, the update only happens
 * when nobody saved in between (optimistic concurrency); returns null when it did not match.
 */
export async function updateChatflow({
  id,
  data,
  expectedVersion,
}: {
  id: string;
  data: Prisma.ChatflowUpdateInput;
  expectedVersion?: number;
}) {
  const db = await getDb();
  const { count } = await db.chatflow.updateMany({
    where: { id, ...(expectedVersion === undefined ? {} : { version: expectedVersion }) },
    data: { ...(data as Prisma.ChatflowUpdateManyMutationInput), version: { increment: 1 } },
  });
  return count ? db.chatflow.findUnique({ where: { id } }) : null;
}

/**
 * Deletes a chatflow; messages and API-key scopes go with it (ON DELETE CASCADE), its store nodes'
 * chunks in the same transaction (DocumentChunk has no foreign key: document stores own chunks too).
 */
export async function deleteChatflowById({ id }: { id: string }) {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await tx.documentChunk.deleteMany({ where: { chatflowId: id } });
    return tx.chatflow.deleteMany({ where: { id } });
  });
}

export async function countChatflows() {
  return (await getDb()).chatflow.count();
}

/** Gives unowned chatflows (loaded before the first admin existed) to that admin. */
export async function claimUnownedChatflows({ ownerId }: { ownerId: string }) {
  return (await getDb()).chatflow.updateMany({ where: { ownerId: null }, data: { ownerId } });
}

/** Whether some public chatflow lists `origin` among its allowed origins (preflights of POST /leads). */
export async function existsPublicChatflowWithOrigin({ origin }: { origin: string }) {
  const db = await getDb();
  return (await db.chatflow.count({ where: { isPublic: true, allowedOrigins: { has: origin } }, take: 1 })) > 0;
}
