import { ADD_TIMEOUT_MS, producer, queueClient, ready, withinAddBudget } from "./client";
import { QUEUE_NAMES } from "./names";

/**
 * A flow's schedule in queue mode: a BullMQ job scheduler (one per schedule id) on the schedules
 * queue. Redis holds the one next job of each scheduler and makes the following one when that job
 * is taken, so every tick is one job, taken by one worker, however many API processes upserted the
 * scheduler or workers listen. Upserting the same id again replaces the pattern (an edit).
 */

export type ScheduleTick = { scheduleId: string };

/** `work` on the schedules queue once the command connection is up, within the add budget (else 503). */
async function onSchedulesQueue<T>(work: (queue: ReturnType<typeof producer>) => Promise<T>): Promise<T> {
  const client = queueClient();
  const deadline = Date.now() + ADD_TIMEOUT_MS;
  await ready(client.command, client.url, deadline);
  return withinAddBudget(client.url, deadline, () => work(producer(QUEUE_NAMES.schedules)));
}

/** Creates or replaces the scheduler of a schedule; 503 queue_unavailable when Redis does not answer. */
export async function upsertQueueSchedule(scheduleId: string, cron: string, timezone: string): Promise<void> {
  await onSchedulesQueue((queue) =>
    queue.upsertJobScheduler(
      scheduleId,
      { pattern: cron, tz: timezone },
      {
        name: "schedule-tick",
        data: { scheduleId } satisfies ScheduleTick,
        // A tick is never retried: a late repeat would run a stale tick (the next tick comes anyway).
        opts: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
      },
    ),
  );
}

/** Removes a schedule's scheduler (its next job too); nothing when it had none. */
export async function removeQueueSchedule(scheduleId: string): Promise<void> {
  await onSchedulesQueue((queue) => queue.removeJobScheduler(scheduleId));
}
