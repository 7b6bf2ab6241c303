import { getDb } from "../client";
import type { Prisma } from "../generated/client";
import { keysetArgs, type KeysetOrder, pageFrom } from "../keyset";
import type { PageRequest } from "@/common/schemas/pagination";

/** Webhook settings (FlowWebhook), schedules (FlowSchedule) and the runs they start (TriggerRun). */

export async function findWebhook({ chatflowId }: { chatflowId: string }) {
  return (await getDb()).flowWebhook.findUnique({ where: { chatflowId } });
}

export async function upsertWebhook({
  chatflowId,
  data,
}: {
  chatflowId: string;
  data: { enabled?: boolean; inputMode?: string; secretEncrypted?: string | null };
}) {
  return (await getDb()).flowWebhook.upsert({
    where: { chatflowId },
    create: { chatflowId, ...data },
    update: data,
  });
}

export async function insertSchedule({ data }: { data: Prisma.FlowScheduleUncheckedCreateInput }) {
  return (await getDb()).flowSchedule.create({ data });
}

export async function findScheduleById({ id }: { id: string }) {
  return (await getDb()).flowSchedule.findUnique({ where: { id } });
}

const SCHEDULE_ORDER: KeysetOrder = { list: "schedules", field: "createdAt", direction: "desc", kind: "date" };

/** Schedules, newest first: of one chatflow, of the chatflows one owner owns, or all; whole, or a page. */
export async function listSchedules(
  {
    chatflowId,
    ownerId,
    chatflowIds,
  }: {
    chatflowId?: string;
    ownerId?: string;
    chatflowIds?: string[];
  },
  page?: PageRequest,
) {
  const keyset = keysetArgs(SCHEDULE_ORDER, page);
  const rows = await (await getDb()).flowSchedule.findMany({
    where: {
      AND: [
        {
          ...(chatflowId ? { chatflowId } : {}),
          ...(chatflowIds
            ? { chatflowId: { in: chatflowId ? chatflowIds.filter((c) => c === chatflowId) : chatflowIds } }
            : {}),
          ...(ownerId ? { chatflow: { ownerId } } : {}),
        },
        keyset.where,
      ],
    },
    orderBy: keyset.orderBy,
    take: keyset.take ?? 500,
  });
  return pageFrom(rows, SCHEDULE_ORDER, page);
}

/** Every enabled schedule (start-up: timers or BullMQ job schedulers are made for them). */
export async function listEnabledSchedules() {
  return (await getDb()).flowSchedule.findMany({ where: { enabled: true } });
}

export async function updateScheduleRow({ id, data }: { id: string; data: Prisma.FlowScheduleUpdateInput }) {
  return (await getDb()).flowSchedule.update({ where: { id }, data });
}

/** Records a finished run on its schedule; a schedule deleted meanwhile is skipped (count 0). */
export async function recordScheduleResult({
  id,
  data,
}: {
  id: string;
  data: Pick<
    Prisma.FlowScheduleUpdateInput,
    "lastRunAt" | "lastStatus" | "lastRunId" | "lastExecutionId" | "lastMessageId" | "lastError"
  >;
}) {
  return (await getDb()).flowSchedule.updateMany({ where: { id }, data });
}

export async function deleteScheduleRow({ id }: { id: string }) {
  return (await getDb()).flowSchedule.delete({ where: { id } });
}

export async function insertTriggerRun({
  data,
}: {
  data: { chatflowId: string; source: "webhook" | "schedule"; scheduleId?: string; tickAt?: Date; leaseUntil: Date };
}) {
  return (await getDb()).triggerRun.create({ data });
}

export async function finishTriggerRun({
  id,
  data,
}: {
  id: string;
  data: {
    status: "succeeded" | "failed";
    answer?: Prisma.InputJsonValue;
    executionId?: string | null;
    chatMessageId?: string | null;
    error?: string | null;
  };
}) {
  return (await getDb()).triggerRun.update({
    where: { id },
    data: { ...data, finishedAt: new Date(), leaseUntil: null },
  });
}

/** Extends a running run's lease; false when it is no longer running (finished, or closed as abandoned). */
export async function renewTriggerRunLease({ id, leaseUntil }: { id: string; leaseUntil: Date }) {
  const { count } = await (await getDb()).triggerRun.updateMany({
    where: { id, status: "running" },
    data: { leaseUntil },
  });
  return count > 0;
}

/**
 * Marks failed, with `error`, the running runs whose lease ran out before `now` (their process died),
 * and those from before leases whose start is older than `startedBefore`. Answers how many.
 */
export async function failAbandonedTriggerRuns({
  now,
  startedBefore,
  error,
}: {
  now: Date;
  startedBefore: Date;
  error: string;
}) {
  const { count } = await (await getDb()).triggerRun.updateMany({
    where: {
      status: "running",
      OR: [{ leaseUntil: { lt: now } }, { leaseUntil: null, createdAt: { lt: startedBefore } }],
    },
    data: { status: "failed", error, finishedAt: now, leaseUntil: null },
  });
  return count;
}

export async function deleteTriggerRun({ id }: { id: string }) {
  return (await getDb()).triggerRun.delete({ where: { id } });
}

export async function findTriggerRunById({ id }: { id: string }) {
  return (await getDb()).triggerRun.findUnique({ where: { id } });
}

/** A schedule's runs, newest first. */
export async function listTriggerRunsOfSchedule({ scheduleId, take }: { scheduleId: string; take: number }) {
  return (await getDb()).triggerRun.findMany({
    where: { scheduleId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take,
  });
}
