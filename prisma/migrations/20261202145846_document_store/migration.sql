-- DropForeignKey
ALTER TABLE "DocumentChunk" DROP CONSTRAINT "DocumentChunk_chatflowId_fkey";

-- CreateTable
CREATE TABLE "DocumentStore" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "graph" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'empty',
    "ownerId" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DocumentStore_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DocumentStore_ownerId_idx" ON "DocumentStore"("ownerId");

-- AddForeignKey
ALTER TABLE "DocumentStore" ADD CONSTRAINT "DocumentStore_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;
