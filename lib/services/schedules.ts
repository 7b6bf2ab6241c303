import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import { chatflowScope, ownerFilter } from "@/common/access/permissions";
import type { CreateSchedule, ScheduleDto, UpdateSchedule } from "@/common/schemas/triggers";
import type { FlowSchedule, Prisma } from "../db/generated/client";
import {
  deleteScheduleRow,
  findScheduleById,
  insertSchedule,
  listSchedules,
  listTriggerRunsOfSchedule,
  updateScheduleRow,
} from "../db/queries/triggers";
import { getChatflowOrThrow } from "./chatflows";
import { startFormFields } from "./trigger-input";
import { toTriggerRunDto } from "./trigger-runs";
import { scheduleRunner } from "./schedule-runner";
import { nextRunOf } from "./schedule-times";
import { mapPage, type Page } from "../db/keyset";
import type { PageRequest } from "@/common/schemas/pagination";

/**
 * Schedules: a cron expression read in an IANA time zone runs a flow's published version with a
 * fixed input. Managed by whoever manages the flow ("chatflow.schedule"). The cron library is the
 * one BullMQ's job schedulers use (cron-parser), so the next run shown is the tick that comes.
 */

export function toScheduleDto(row: FlowSchedule): ScheduleDto {
  let nextRunAt: string | null = null;
  if (row.enabled) {
    try {
      nextRunAt = nextRunOf(row.cron, row.timezone).toISOString();
    } catch {
      nextRunAt = null; // stored before a library upgrade changed what parses: shown without a next run
    }
  }
  return {
    id: row.id,
    chatflowId: row.chatflowId,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    input: (row.input ?? {}) as ScheduleDto["input"],
    enabled: row.enabled,
    nextRunAt,
    lastRun:
      row.lastRunAt && row.lastStatus
        ? {
            at: row.lastRunAt.toISOString(),
            status: row.lastStatus === "succeeded" ? "succeeded" : "failed",
            runId: row.lastRunId,
            executionId: row.lastExecutionId,
            chatMessageId: row.lastMessageId,
            error: row.lastError,
          }
        : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** 400 when a form flow gets a question, or a question flow a form, or form fields it does not have. */
async function checkInput(chatflowId: string, input: ScheduleDto["input"], caller: Caller): Promise<void> {
  const chatflow = await getChatflowOrThrow(chatflowId, caller, "chatflow.schedule");
  const fields = startFormFields(chatflow);
  const bad = (field: string, message: string) =>
    new AppError("validation_failed", `input.${field}: ${message}`, {
      details: [{ field: `body.input.${field}`, message }],
    });
  if (!fields) {
    if (!input.question?.trim()) throw bad("question", "this flow starts from a question; give one.");
    return;
  }
  const form = input.form ?? {};
  const unknown = Object.keys(form).find((k) => !fields.includes(k));
  if (unknown) throw bad(`form.${unknown}`, `the flow's form has no such field (it has ${fields.join(", ")}).`);
  const missing = fields.find((f) => form[f] === undefined || form[f] === null || form[f] === "");
  if (missing) throw bad(`form.${missing}`, "this form field is required.");
}

/** A schedule the caller manages, or 404 (the same for unknown and others' schedules). */
async function getScheduleOrThrow(id: string, caller: Caller): Promise<FlowSchedule> {
  const row = await findScheduleById({ id });
  if (!row) throw new AppError("not_found", `Schedule ${id} not found.`);
  try {
    await getChatflowOrThrow(row.chatflowId, caller, "chatflow.schedule");
  } catch (err) {
    if (err instanceof AppError && (err.code === "not_found" || err.code === "forbidden"))
      throw new AppError("not_found", `Schedule ${id} not found.`);
    throw err;
  }
  return row;
}

/** GET /api/v1/schedules[?chatflowId]: the schedules of the flows the caller manages. */
export async function listSchedulesFor(
  caller: Caller,
  chatflowId?: string,
  page?: PageRequest,
): Promise<Page<ScheduleDto>> {
  if (chatflowId) await getChatflowOrThrow(chatflowId, caller, "chatflow.schedule");
  const rows = await listSchedules(
    {
      ...(chatflowId ? { chatflowId } : {}),
      ...(ownerFilter(caller, "chatflow.schedule") ? { ownerId: ownerFilter(caller, "chatflow.schedule") } : {}),
      ...(chatflowScope(caller) ? { chatflowIds: chatflowScope(caller) } : {}),
    },
    page,
  );
  return mapPage(rows, toScheduleDto);
}

export async function getSchedule(id: string, caller: Caller): Promise<ScheduleDto & { runs: unknown[] }> {
  const row = await getScheduleOrThrow(id, caller);
  const runs = await listTriggerRunsOfSchedule({ scheduleId: id, take: 20 });
  return { ...toScheduleDto(row), runs: runs.map(toTriggerRunDto) };
}

/** POST /api/v1/schedules: checked (cron, time zone, input against the flow's Start), stored, then armed. */
export async function createSchedule(input: CreateSchedule, caller: Caller): Promise<ScheduleDto> {
  const timezone = input.timezone ?? "UTC";
  nextRunOf(input.cron, timezone);
  await checkInput(input.chatflowId, input.input, caller);
  const row = await insertSchedule({
    data: {
      chatflowId: input.chatflowId,
      name: input.name ?? "",
      cron: input.cron.trim(),
      timezone,
      input: input.input as Prisma.InputJsonValue,
      enabled: input.enabled ?? true,
    },
  });
  await armOrRollBack(row, () => deleteScheduleRow({ id: row.id }));
  return toScheduleDto(row);
}

/** PUT /api/v1/schedules/{id}: any subset, checked as on creation; the timer or job scheduler follows. */
export async function updateSchedule(id: string, change: UpdateSchedule, caller: Caller): Promise<ScheduleDto> {
  const before = await getScheduleOrThrow(id, caller);
  const cron = change.cron?.trim() ?? before.cron;
  const timezone = change.timezone ?? before.timezone;
  nextRunOf(cron, timezone);
  if (change.input) await checkInput(before.chatflowId, change.input, caller);
  const row = await updateScheduleRow({
    id,
    data: {
      ...(change.name !== undefined ? { name: change.name } : {}),
      cron,
      timezone,
      ...(change.input ? { input: change.input as Prisma.InputJsonValue } : {}),
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
    },
  });
  await armOrRollBack(row, () =>
    updateScheduleRow({
      id,
      data: {
        name: before.name,
        cron: before.cron,
        timezone: before.timezone,
        input: (before.input ?? {}) as Prisma.InputJsonValue,
        enabled: before.enabled,
      },
    }),
  );
  return toScheduleDto(row);
}

/** DELETE /api/v1/schedules/{id}: disarmed first (no tick after the answer), then deleted; its runs stay. */
export async function deleteSchedule(id: string, caller: Caller): Promise<{ deleted: true; id: string }> {
  await getScheduleOrThrow(id, caller);
  await scheduleRunner().disarm(id);
  await deleteScheduleRow({ id });
  return { deleted: true, id };
}

/** Arms the stored schedule; when the queue refuses (Redis down: 503), the change is undone first. */
async function armOrRollBack(row: FlowSchedule, undo: () => Promise<unknown>): Promise<void> {
  try {
    await scheduleRunner().arm(row);
  } catch (err) {
    await undo().catch(() => {});
    throw err;
  }
}
