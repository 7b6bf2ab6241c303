// Next.js calls register() once per server process, before the first request (next start through
// server/start.mjs, and next dev): the start-up migration happens here, not in getDb().
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { bootstrapOrExit } = await import("./lib/services/bootstrap");
  await bootstrapOrExit();
  // Traces (OTEL_EXPORTER_OTLP_ENDPOINT): the one place the API process starts them, before its
  // first request (the fast prediction route waits for this hook too). Unset: nothing is loaded.
  const { startTracingOrWarn } = await import("./lib/telemetry/start");
  await startTracingOrWarn();
  // An embedded server continues the agentflow runs a dead process left (queue mode: the workers do).
  const { startAbandonedRunRecovery } = await import("./lib/services/agentflow-recovery");
  startAbandonedRunRecovery();
  // Either mode: webhook and schedule runs whose process died are closed as failed, saying why.
  const { startTriggerRunSweeps } = await import("./lib/services/trigger-run-leases");
  startTriggerRunSweeps();
}
