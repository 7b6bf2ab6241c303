-- CreateTable
CREATE TABLE "FlowWebhook" (
    "chatflowId" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "inputMode" TEXT NOT NULL DEFAULT 'question',
    "secretEncrypted" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowWebhook_pkey" PRIMARY KEY ("chatflowId")
);

-- CreateTable
CREATE TABLE "FlowSchedule" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "cron" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "input" JSONB NOT NULL DEFAULT '{}',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "lastRunAt" TIMESTAMP(3),
    "lastStatus" TEXT,
    "lastRunId" UUID,
    "lastExecutionId" UUID,
    "lastMessageId" UUID,
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "FlowSchedule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TriggerRun" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "source" TEXT NOT NULL,
    "scheduleId" UUID,
    "status" TEXT NOT NULL DEFAULT 'running',
    "answer" JSONB,
    "executionId" UUID,
    "chatMessageId" UUID,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "TriggerRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "FlowSchedule_chatflowId_idx" ON "FlowSchedule"("chatflowId");

-- CreateIndex
CREATE INDEX "TriggerRun_scheduleId_createdAt_idx" ON "TriggerRun"("scheduleId", "createdAt");

-- CreateIndex
CREATE INDEX "TriggerRun_chatflowId_createdAt_idx" ON "TriggerRun"("chatflowId", "createdAt");

-- AddForeignKey
ALTER TABLE "FlowWebhook" ADD CONSTRAINT "FlowWebhook_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlowSchedule" ADD CONSTRAINT "FlowSchedule_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TriggerRun" ADD CONSTRAINT "TriggerRun_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
