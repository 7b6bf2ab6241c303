-- CreateTable
CREATE TABLE "ChatflowTestCase" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "history" JSONB,
    "overrideConfig" JSONB,
    "uploads" JSONB,
    "expectations" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChatflowTestCase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChatflowTestRun" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL,
    "passed" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "cases" JSONB NOT NULL,
    "results" JSONB NOT NULL DEFAULT '[]',
    "startedById" UUID,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ChatflowTestRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ChatflowTestCase_chatflowId_createdAt_idx" ON "ChatflowTestCase"("chatflowId", "createdAt");

-- CreateIndex
CREATE INDEX "ChatflowTestRun_chatflowId_version_createdAt_idx" ON "ChatflowTestRun"("chatflowId", "version", "createdAt");

-- AddForeignKey
ALTER TABLE "ChatflowTestCase" ADD CONSTRAINT "ChatflowTestCase_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChatflowTestRun" ADD CONSTRAINT "ChatflowTestRun_chatflowId_fkey" FOREIGN KEY ("chatflowId") REFERENCES "Chatflow"("id") ON DELETE CASCADE ON UPDATE CASCADE;
