-- AlterTable
ALTER TABLE "ChatMessage" ADD COLUMN     "chatflowVersion" INTEGER;

-- AlterTable
ALTER TABLE "Chatflow" ADD COLUMN     "publishedVersion" INTEGER,
ADD COLUMN     "requirePassingTests" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ChatflowVersion" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "graph" JSONB NOT NULL,
    "overrideAllowList" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "chatbotConfig" JSONB NOT NULL DEFAULT '{}',
    "speechToText" JSONB NOT NULL DEFAULT '{}',
    "authorId" UUID,
    "authorName" TEXT NOT NULL DEFAULT '',
    "message" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChatflowVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ChatflowVersion_chatflowId_version_key" ON "ChatflowVersion"("chatflowId", "version");

-- AddForeignKey
ALTER TABLE "ChatflowVersion" ADD CONSTRAINT "ChatflowVersion_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatflowVersion" ADD CONSTRAINT "ChatflowVersion_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Existing chatflows: their current state becomes version 1 (never published: they run the latest,
-- as before). gen_random_uuid() is core PostgreSQL (13+) and PGlite.
UPDATE "Chatflow" SET "version" = 1;

INSERT INTO "ChatflowVersion" ("id", "chatflowId", "version", "graph", "overrideAllowList", "chatbotConfig",
  "speechToText", "authorId", "authorName", "message", "createdAt")
SELECT gen_random_uuid(), c."id", 1, c."graph", c."overrideAllowList", c."chatbotConfig", c."speechToText",
  c."ownerId", COALESCE(u."name", ''), 'Saved before versions existed', c."updatedAt"
FROM "Chatflow" c LEFT JOIN "User" u ON u."id" = c."ownerId";
