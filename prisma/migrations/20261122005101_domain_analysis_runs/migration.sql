-- CreateEnum
CREATE TYPE "DomainAnalysisStatus" AS ENUM ('queued', 'running', 'succeeded', 'failed');

-- AlterTable
ALTER TABLE "Domain" ADD COLUMN     "analysisRunId" UUID,
ADD COLUMN     "analysisStatus" "DomainAnalysisStatus";

-- CreateTable
CREATE TABLE "DomainAnalysisRun" (
    "id" UUID NOT NULL,
    "chatflowId" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "total" INTEGER NOT NULL,
    "succeeded" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "DomainAnalysisRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DomainAnalysisRun_createdAt_idx" ON "DomainAnalysisRun"("createdAt");

-- CreateIndex
CREATE INDEX "Domain_createdAt_idx" ON "Domain"("createdAt");

-- CreateIndex
CREATE INDEX "Domain_isValid_createdAt_idx" ON "Domain"("isValid", "createdAt");

-- CreateIndex
CREATE INDEX "Domain_analysisRunId_idx" ON "Domain"("analysisRunId");
