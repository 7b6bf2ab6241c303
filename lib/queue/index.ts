/**
 * Queue mode (MODE=queue): API processes hand predictions, upserts and domain analyses to worker
 * processes (`npm run worker`) through Redis with BullMQ. Framework-free: nothing here knows HTTP.
 * API side: runJob (client.ts). Worker side: registerProcessor (worker.ts). The lib/jobs contract
 * on BullMQ: job-queue.ts. The wire format: protocol.ts.
 */
export { ADD_TIMEOUT_MS, closeQueueClient, type JobEvent, type RunJobOptions, runJob } from "./client";
export { createBullJobQueue, registerDefinition } from "./job-queue";
export { QUEUE_NAMES, QUEUE_PREFIX, type QueueName } from "./names";
export { closeWorkers, type ProcessorContext, registerProcessor, runningJobCount, type WorkerSettings } from "./worker";
