-- AlterTable
ALTER TABLE "TriggerRun" ADD COLUMN     "leaseUntil" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "TriggerRun_status_leaseUntil_idx" ON "TriggerRun"("status", "leaseUntil");
