import { QUEUE_NAMES, registerDefinition, registerProcessor } from "../queue";
import { analyseDomainJob } from "./domains-analysis";
import { chatflowTestRunJob } from "./chatflow-tests/runs";
import { runOnWorker } from "../jobs";
import { predictionRuns } from "./predictions";
import { upsertRuns } from "./upsert";
import { scheduleTickJob } from "./schedule-runner";

/**
 * Queue mode, worker process (server/worker.ts): runs the predictions, vector upserts and domain
 * analyses and chatflow test runs the API processes hand over, and the ticks of schedules. Each queue runs up to `concurrency` jobs at once.
 */
export function startQueueWorkers(concurrency: number): string[] {
  registerProcessor(QUEUE_NAMES.predictions, runOnWorker(predictionRuns), { concurrency });
  registerProcessor(QUEUE_NAMES.upserts, runOnWorker(upsertRuns), { concurrency });
  registerDefinition(analyseDomainJob, concurrency);
  registerDefinition(chatflowTestRunJob, concurrency);
  registerDefinition(scheduleTickJob, concurrency);
  return [
    QUEUE_NAMES.predictions,
    QUEUE_NAMES.upserts,
    QUEUE_NAMES.domains,
    QUEUE_NAMES.testRuns,
    QUEUE_NAMES.schedules,
  ];
}
