-- CreateIndex
CREATE INDEX "ChatMessage_chatflowId_chatType_createdAt_idx" ON "ChatMessage"("chatflowId", "chatType", "createdAt");
