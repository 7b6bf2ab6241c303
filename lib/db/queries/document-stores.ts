import { getDb } from "../client";
import type { Prisma } from "../generated/client";
import type { PageRequest } from "@/common/schemas/pagination";
import { keysetArgs, type KeysetOrder, pageFrom } from "../keyset";

/** Queries of the DocumentStore table (their chunks: document-chunks.ts, keyed by the store's id). */

const STORE_ORDER: KeysetOrder = { list: "document-stores", field: "createdAt", direction: "desc", kind: "date" };

/** Stores, newest first (creation, which a change does not move: pages never shift), whole or a page. */
export async function listDocumentStores({ ownerId }: { ownerId?: string }, page?: PageRequest) {
  const keyset = keysetArgs(STORE_ORDER, page);
  const rows = await (await getDb()).documentStore.findMany({
    where: { AND: [ownerId ? { ownerId } : {}, keyset.where] },
    orderBy: keyset.orderBy,
    take: keyset.take,
  });
  return pageFrom(rows, STORE_ORDER, page);
}

export async function findDocumentStoreById({ id }: { id: string }) {
  return (await getDb()).documentStore.findUnique({ where: { id } });
}

export async function insertDocumentStore(data: Prisma.DocumentStoreUncheckedCreateInput) {
  return (await getDb()).documentStore.create({ data });
}

export async function updateDocumentStoreById({
  id,
  data,
}: {
  id: string;
  data: Prisma.DocumentStoreUncheckedUpdateInput;
}) {
  return (await getDb()).documentStore.update({ where: { id }, data });
}

/** Deletes a store and its chunks in one transaction (their embeddings go with the chunks). */
export async function deleteDocumentStoreById({ id }: { id: string }) {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    await tx.documentChunk.deleteMany({ where: { chatflowId: id } });
    return tx.documentStore.deleteMany({ where: { id } });
  });
}
