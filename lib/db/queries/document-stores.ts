import { getDb } from "../client";
import type { Prisma } from "../generated/client";

/** Queries of the DocumentStore table (their chunks: document-chunks.ts, keyed by the store's id). */

export async function listDocumentStores({ ownerId }: { ownerId?: string }) {
  return (await getDb()).documentStore.findMany({
    where: ownerId ? { ownerId } : {},
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
  });
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
