/**
 * The BullMQ queues of queue mode (MODE=queue), under one key prefix in Redis. API processes add
 * jobs; worker processes (`npm run worker`) run them. The names are part of what runs in Redis:
 * renaming one strands the jobs waiting under the old name.
 */
export const QUEUE_PREFIX = "switchyard";

export const QUEUE_NAMES = {
  /** One chat turn (JSON or streamed): build the flow, run it, store the exchange. */
  predictions: "predictions",
  /** One vector upsert request: load, split, embed, write the stores. */
  upserts: "upserts",
  /** One domain of a domain-analysis run (the former in-process queue). */
  domains: "domain-analyses",
  /** One run of a chatflow's test cases (lib/services/chatflow-tests/runs.ts). */
  testRuns: "chatflow-test-runs",
  /** One tick of a flow's schedule (BullMQ job schedulers make exactly one per tick: lib/queue/job-schedulers.ts). */
  schedules: "flow-schedules",
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];
