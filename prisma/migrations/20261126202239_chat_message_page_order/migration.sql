-- DropIndex
DROP INDEX "ChatMessage_chatflowId_createdAt_idx";

-- CreateIndex
CREATE INDEX "ChatMessage_chatflowId_createdAt_id_idx" ON "ChatMessage"("chatflowId", "createdAt", "id");
