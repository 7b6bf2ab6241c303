-- DropIndex
DROP INDEX "ChatMessage_chatflowId_sessionId_createdAt_idx";

-- CreateIndex
CREATE INDEX "ChatMessage_chatflowId_sessionId_createdAt_role_idx" ON "ChatMessage"("chatflowId", "sessionId", "createdAt", "role");
