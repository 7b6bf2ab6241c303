-- DropForeignKey
ALTER TABLE "ApiKey" DROP CONSTRAINT "ApiKey_createdById_fkey";

-- AlterTable
ALTER TABLE "Chatflow" ADD COLUMN     "ownerId" UUID;

-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "ownerId" UUID,
ADD COLUMN     "sharedWithBuilders" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "Chatflow_ownerId_idx" ON "Chatflow"("ownerId");

-- CreateIndex
CREATE INDEX "Credential_ownerId_idx" ON "Credential"("ownerId");

-- AddForeignKey
ALTER TABLE "Chatflow" ADD CONSTRAINT "Chatflow_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Credential" ADD CONSTRAINT "Credential_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Written by hand: existing chatflows and credentials get the oldest admin as owner (admins manage
-- everything anyway, builders lose access to objects that were never theirs).
UPDATE "Chatflow" SET "ownerId" = (SELECT "id" FROM "User" WHERE "role" = 'admin' ORDER BY "createdAt", "id" LIMIT 1)
WHERE "ownerId" IS NULL;
UPDATE "Credential" SET "ownerId" = (SELECT "id" FROM "User" WHERE "role" = 'admin' ORDER BY "createdAt", "id" LIMIT 1)
WHERE "ownerId" IS NULL;
-- Keys are only ever created by users, so a key without one lost its user (ON DELETE SET NULL
-- before this migration): it dies with its owner, as the owner's later keys will by CASCADE.
UPDATE "ApiKey" SET "revokedAt" = CURRENT_TIMESTAMP WHERE "createdById" IS NULL AND "revokedAt" IS NULL;
