-- AlterTable
ALTER TABLE "Execution" ADD COLUMN     "runId" TEXT,
ADD COLUMN     "takeovers" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "Execution_runId_idx" ON "Execution"("runId");
