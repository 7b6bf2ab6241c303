import type { PredictionBody } from "@/common/schemas/prediction";
import type { FlowSchedule } from "../db/generated/client";
import { findScheduleById, listEnabledSchedules, recordScheduleResult } from "../db/queries/triggers";
import { type JobDefinition, jobsPlacement } from "../jobs";
import { log } from "../log";
import { removeQueueSchedule, type ScheduleTick, upsertQueueSchedule } from "../queue/job-schedulers";
import { processState } from "../state";
import { nextRunOf } from "./schedule-times";
import { isTickTaken, publishedFlowForTrigger, startTriggerRun } from "./trigger-runs";

/**
 * Where schedules tick. Embedded mode: a timer per enabled schedule in this (the one) process.
 * Queue mode: a BullMQ job scheduler per schedule in Redis, whose one job per tick one worker takes
 * (scheduleTickJob), however many API processes armed it. Either way a tick is runScheduleTick.
 */
export interface ScheduleRunner {
  /** Makes the schedule tick as stored (enabled: armed with its cron and zone; disabled: disarmed). */
  arm(schedule: FlowSchedule): Promise<void>;
  disarm(scheduleId: string): Promise<void>;
  /** At start: every enabled schedule armed (queue mode: upserting is idempotent across processes). */
  armAll(): Promise<number>;
}

/** setTimeout's longest delay; a later run is reached by waking up and waiting again. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const timers = () => processState("scheduleTimers", () => new Map<string, ReturnType<typeof setTimeout>>());

function armTimer(schedule: Pick<FlowSchedule, "id" | "cron" | "timezone">, from = new Date()): void {
  clearTimeout(timers().get(schedule.id));
  const at = nextRunOf(schedule.cron, schedule.timezone, from);
  const wait = Math.min(MAX_TIMER_MS, Math.max(0, at.getTime() - Date.now()));
  const timer = setTimeout(() => {
    if (Date.now() < at.getTime()) return armTimer(schedule, from); // a wait longer than one timer
    // The next tick is armed first (from this tick's time, so it is strictly later), then this one runs.
    armTimer(schedule, at);
    void runScheduleTick(schedule.id, { here: true, tickAt: at });
  }, wait);
  timer.unref?.();
  timers().set(schedule.id, timer);
}

const embeddedRunner: ScheduleRunner = {
  async arm(schedule) {
    if (schedule.enabled) armTimer(schedule);
    else await this.disarm(schedule.id);
  },
  async disarm(scheduleId) {
    clearTimeout(timers().get(scheduleId));
    timers().delete(scheduleId);
  },
  async armAll() {
    const all = await listEnabledSchedules();
    for (const s of all) armTimer(s);
    return all.length;
  },
};

const queueRunner: ScheduleRunner = {
  async arm(schedule) {
    if (schedule.enabled) await upsertQueueSchedule(schedule.id, schedule.cron, schedule.timezone);
    else await removeQueueSchedule(schedule.id);
  },
  disarm: (scheduleId) => removeQueueSchedule(scheduleId),
  async armAll() {
    const all = await listEnabledSchedules();
    for (const s of all) await upsertQueueSchedule(s.id, s.cron, s.timezone);
    return all.length;
  },
};

/** This process's runner, from the configuration (lib/jobs jobsPlacement). */
export function scheduleRunner(): ScheduleRunner {
  return jobsPlacement().mode === "queue" ? queueRunner : embeddedRunner;
}

/** A schedule's fixed input as a prediction body. */
function bodyOf(schedule: FlowSchedule): PredictionBody {
  const input = (schedule.input ?? {}) as { question?: string; form?: Record<string, unknown> };
  return { ...(input.question ? { question: input.question } : {}), ...(input.form ? { form: input.form } : {}) };
}

/**
 * One tick: runs the schedule's flow (published version) with its input in this process and records
 * the outcome on the schedule (and the run's TriggerRun row). A schedule deleted or turned off since
 * the tick was made is disarmed and nothing runs. Never throws: the outcome is the record.
 */
export async function runScheduleTick(scheduleId: string, opts: { here: boolean; tickAt?: Date }): Promise<void> {
  const schedule = await findScheduleById({ id: scheduleId });
  if (!schedule?.enabled) {
    await scheduleRunner()
      .disarm(scheduleId)
      .catch(() => {});
    return;
  }
  const at = new Date();
  let runId: string | null = null;
  try {
    const chatflow = await publishedFlowForTrigger(schedule.chatflowId, "schedule");
    const started = await startTriggerRun({
      chatflow,
      body: bodyOf(schedule),
      source: "schedule",
      scheduleId,
      ...(opts.tickAt ? { tickAt: opts.tickAt } : {}),
      here: opts.here,
    });
    runId = started.run.id;
    const answer = await started.done;
    await recordScheduleResult({
      id: scheduleId,
      data: {
        lastRunAt: at,
        lastStatus: "succeeded",
        lastRunId: runId,
        lastExecutionId: answer.executionId ?? null,
        lastMessageId: answer.chatMessageId || null,
        lastError: null,
      },
    });
  } catch (err) {
    // Another delivery of this tick ran it (BullMQ hands a job on when its lock ran out): nothing to record.
    if (isTickTaken(err)) return;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    log.warn({ scheduleId, err: message }, "a scheduled run failed");
    await recordScheduleResult({
      id: scheduleId,
      data: {
        lastRunAt: at,
        lastStatus: "failed",
        lastRunId: runId,
        lastExecutionId: null,
        lastMessageId: null,
        lastError: message,
      },
    }).catch(() => {});
  }
}

/**
 * The cron time of a BullMQ job scheduler's job, read from its id: BullMQ 6 names them
 * `repeat:<schedulerId>:<millis>` (JobScheduler.getSchedulerNextJobId, not a documented API).
 * tests/queue/schedules-queue.test.ts fails if an upgrade changes it (its runs would have no tick).
 */
export function tickOfJobId(jobId: string | undefined): Date | undefined {
  const millis = /^repeat:.+:(\d{10,})$/.exec(jobId ?? "")?.[1];
  return millis ? new Date(Number(millis)) : undefined;
}

/** Queue mode, worker processes: the ticks BullMQ's job schedulers make, one job each. */
export const scheduleTickJob: JobDefinition<ScheduleTick> = {
  name: "schedule-tick",
  handler: (tick, ctx) => {
    const tickAt = tickOfJobId(ctx.jobId);
    return runScheduleTick(tick.scheduleId, { here: true, ...(tickAt ? { tickAt } : {}) });
  },
  attempts: 1,
  concurrency: 4,
};
