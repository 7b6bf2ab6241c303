/**
 * The admin queue view (GET /api/v1/admin/queue, the studio's Queue page): queue depths, the jobs
 * running now and the workers. Queue mode reads BullMQ's queues under QUEUE_PREFIX and the worker
 * heartbeats; embedded mode the in-process queues of this process (lib/jobs), with no workers.
 */
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Caller } from "@/common/access/callers";
import { assertMay } from "@/common/access/permissions";
import { AppError } from "@/common/errors";
import { jobsPlacement, listJobQueues } from "../jobs";
import { errorText } from "../log";
import { listWorkers, type WorkerHeartbeat } from "../queue/heartbeat";
import { QUEUE_NAMES, QUEUE_PREFIX } from "../queue/names";
import { redisConnections } from "../redis";
import { processState } from "../state/registry";

export type QueueCounts = {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
};
export type ActiveJob = {
  id: string;
  queue: string;
  name: string;
  chatflowId?: string;
  requestId?: string;
  /** 1 for the first try. */
  attempt: number;
  startedAt: string | null;
};
export type QueueView = {
  mode: "embedded" | "queue";
  queues: QueueCounts[];
  active: ActiveJob[];
  workers: WorkerHeartbeat[];
};

/** At most this many running jobs are listed per queue. */
const ACTIVE_LIMIT = 100;

// BullMQ Queue objects per connection (they share the process's command connection): "queueView" in lib/state/catalogue.ts.
const bullQueues = () => processState("queueView", () => new WeakMap<Redis, Map<string, Queue>>());

function queuesOn(connection: Redis): Queue[] {
  let byName = bullQueues().get(connection);
  if (!byName) {
    byName = new Map();
    bullQueues().set(connection, byName);
  }
  for (const name of Object.values(QUEUE_NAMES)) {
    if (!byName.has(name)) byName.set(name, new Queue(name, { connection, prefix: QUEUE_PREFIX }));
  }
  return [...byName.values()];
}

/** What the queues hold now (admins only: the permission table's "queue.view"). */
export async function queueView(caller: Caller, redis?: Redis): Promise<QueueView> {
  assertMay(caller, "queue.view", "view the job queues");
  const placement = jobsPlacement();
  if (placement.mode === "embedded") return embeddedView();
  const connection = redis ?? redisConnections(placement.redisUrl).command;
  try {
    return await bullView(connection);
  } catch (err) {
    const u = new URL(placement.redisUrl);
    throw new AppError(
      "upstream_unavailable",
      `Redis at ${u.hostname}:${u.port || 6379} is unreachable (${errorText(err)}): the queue view needs it.`,
      { cause: err },
    );
  }
}

function embeddedView(): QueueView {
  const queues = listJobQueues().map((q) => {
    const c = q.counts();
    return {
      name: q.name,
      waiting: c.waiting,
      active: c.active,
      delayed: c.delayed,
      failed: c.failed ?? 0,
      completed: c.completed ?? 0,
    };
  });
  // In-process jobs have no ids of their own: counts only.
  return { mode: "embedded", queues, active: [], workers: [] };
}

async function bullView(connection: Redis): Promise<QueueView> {
  const queues = queuesOn(connection);
  const [counts, active, workers] = await Promise.all([
    Promise.all(
      queues.map(async (q) => {
        const c = await q.getJobCounts(
          "waiting",
          "active",
          "delayed",
          "failed",
          "completed",
          "prioritized",
          "waiting-children",
        );
        return {
          name: q.name,
          waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c["waiting-children"] ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          failed: c.failed ?? 0,
          completed: c.completed ?? 0,
        };
      }),
    ),
    Promise.all(
      queues.map(async (q) =>
        (await q.getActive(0, ACTIVE_LIMIT - 1)).filter(Boolean).map((job): ActiveJob => {
          // Request/response jobs wrap their input ({input, deadline, requestId}); lib/jobs ones are the input.
          const raw = (job.data ?? {}) as {
            chatflowId?: unknown;
            requestId?: unknown;
            input?: { chatflowId?: unknown };
          };
          const data = { requestId: raw.requestId, chatflowId: raw.chatflowId ?? raw.input?.chatflowId };
          return {
            id: String(job.id),
            queue: q.name,
            name: job.name,
            ...(typeof data.chatflowId === "string" ? { chatflowId: data.chatflowId } : {}),
            ...(typeof data.requestId === "string" ? { requestId: data.requestId } : {}),
            attempt: job.attemptsMade + 1,
            startedAt: job.processedOn ? new Date(job.processedOn).toISOString() : null,
          };
        }),
      ),
    ),
    listWorkers(connection),
  ]);
  return { mode: "queue", queues: counts, active: active.flat(), workers };
}
