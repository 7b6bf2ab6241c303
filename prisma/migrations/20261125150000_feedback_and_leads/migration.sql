-- Written by hand: feedback as Flowise stores it (thumbs on an answer, one per message) and leads
-- (the contact form of the widget). Both go with their chatflow, feedback also with its message.
-- No semicolons or quotes in these comments: the server adapter splits scripts on semicolons.

-- CreateEnum
CREATE TYPE "FeedbackRating" AS ENUM ('THUMBS_UP', 'THUMBS_DOWN');

-- CreateTable
CREATE TABLE "ChatMessageFeedback" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "chatId" TEXT NOT NULL,
    "messageId" UUID NOT NULL,
    "rating" "FeedbackRating" NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChatMessageFeedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Lead" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "chatId" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "phone" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Lead_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ChatMessageFeedback_messageId_key" ON "ChatMessageFeedback"("messageId");

-- CreateIndex
CREATE INDEX "ChatMessageFeedback_chatflowId_createdAt_idx" ON "ChatMessageFeedback"("chatflowId", "createdAt");

-- CreateIndex
CREATE INDEX "Lead_chatflowId_createdAt_idx" ON "Lead"("chatflowId", "createdAt");

-- AddForeignKey
ALTER TABLE "ChatMessageFeedback" ADD CONSTRAINT "ChatMessageFeedback_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatMessageFeedback" ADD CONSTRAINT "ChatMessageFeedback_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "ChatMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Lead" ADD CONSTRAINT "Lead_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
