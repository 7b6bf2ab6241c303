-- AlterTable
ALTER TABLE "TriggerRun" ADD COLUMN     "tickAt" TIMESTAMP(3);
