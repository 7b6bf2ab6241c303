-- CreateEnum
CREATE TYPE "ChatflowType" AS ENUM ('CHATFLOW', 'AGENTFLOW');

-- CreateEnum
CREATE TYPE "ExecutionStatus" AS ENUM ('running', 'paused', 'finished', 'error', 'timeout');

-- AlterTable
ALTER TABLE "Chatflow" ADD COLUMN     "type" "ChatflowType" NOT NULL DEFAULT 'CHATFLOW';

-- CreateTable
CREATE TABLE "Execution" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "sessionId" TEXT NOT NULL,
    "chatId" TEXT NOT NULL,
    "status" "ExecutionStatus" NOT NULL DEFAULT 'running',
    "state" JSONB NOT NULL DEFAULT '{}',
    "position" JSONB NOT NULL DEFAULT '{}',
    "executedData" JSONB NOT NULL DEFAULT '[]',
    "action" JSONB,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Execution_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Execution_chatflowId_chatId_createdAt_idx" ON "Execution"("chatflowId", "chatId", "createdAt");

-- CreateIndex
CREATE INDEX "Execution_chatflowId_status_createdAt_idx" ON "Execution"("chatflowId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Chatflow_type_updatedAt_idx" ON "Chatflow"("type", "updatedAt");

-- AddForeignKey
ALTER TABLE "Execution" ADD CONSTRAINT "Execution_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
