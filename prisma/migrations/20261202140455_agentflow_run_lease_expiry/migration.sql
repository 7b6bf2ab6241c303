-- AlterEnum
ALTER TYPE "ExecutionStatus" ADD VALUE 'expired';

-- AlterTable
ALTER TABLE "Execution" ADD COLUMN     "chatType" "ChatType",
ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "leaseUntil" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Execution_status_leaseUntil_idx" ON "Execution"("status", "leaseUntil");
