-- CreateIndex
CREATE UNIQUE INDEX "TriggerRun_scheduleId_tickAt_key" ON "TriggerRun"("scheduleId", "tickAt");
