-- CreateTable
CREATE TABLE "DocumentChunk" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "nodeId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "searchVector" tsvector,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DocumentChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DocumentChunk_searchVector_idx" ON "DocumentChunk" USING GIN ("searchVector");

-- CreateIndex
CREATE UNIQUE INDEX "DocumentChunk_chatflowId_nodeId_source_contentHash_key" ON "DocumentChunk"("chatflowId", "nodeId", "source", "contentHash");

-- AddForeignKey
ALTER TABLE "DocumentChunk" ADD CONSTRAINT "DocumentChunk_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-added: keep "searchVector" in step with "content" for full-text search, on every insert path.
-- A trigger rather than a generated column (Prisma reads that as a default and would diff it away);
-- the built-in tsvector_update_trigger, because the server adapter splits scripts on semicolons.
CREATE TRIGGER "DocumentChunk_searchVector_trigger" BEFORE INSERT OR UPDATE ON "DocumentChunk"
  FOR EACH ROW EXECUTE FUNCTION tsvector_update_trigger("searchVector", 'pg_catalog.english', "content");
