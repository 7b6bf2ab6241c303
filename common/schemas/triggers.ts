import { z } from "zod";

/**
 * Webhooks and schedules (lib/services/webhooks.ts, lib/services/schedules.ts): what starts a
 * flow's published version without a chat. Requests and answers, for the routes, the studio and
 * the OpenAPI document.
 */

const isoDate = z.iso.datetime();

/** How a webhook's JSON body becomes the run's input: its `question` field, or the whole body as text. */
export const WEBHOOK_INPUT_MODES = ["question", "body"] as const;

/** PUT /api/v1/chatflows/{id}/webhook: any subset; `rotateSecret` makes a new secret (shown once), `removeSecret` drops it. */
export const updateWebhookSchema = z
  .strictObject({
    enabled: z.boolean().optional(),
    inputMode: z.enum(WEBHOOK_INPUT_MODES).optional(),
    rotateSecret: z.boolean().optional(),
    removeSecret: z.boolean().optional(),
  })
  .refine((b) => !(b.rotateSecret && b.removeSecret), {
    message: "send rotateSecret or removeSecret, not both",
    path: ["removeSecret"],
  });
export type UpdateWebhook = z.infer<typeof updateWebhookSchema>;

export const webhookSettingsSchema = z
  .object({
    chatflowId: z.string(),
    enabled: z.boolean(),
    inputMode: z.enum(WEBHOOK_INPUT_MODES),
    /** Whether calls must be signed. The secret itself is answered once, when made. */
    hasSecret: z.boolean(),
    /** The new secret: only in the answer that made it. */
    secret: z.string().optional(),
    /** The path to POST to (relative to the server's origin). */
    path: z.string(),
    /** Whether the flow has a published version (a webhook runs only that). */
    published: z.boolean(),
  })
  .meta({ id: "WebhookSettings" });
export type WebhookSettings = z.infer<typeof webhookSettingsSchema>;

/** The query of POST /api/v1/webhook/{id}: `async=true` answers 202 at once. */
export const webhookQuerySchema = z.object({
  async: z.enum(["true", "false"]).optional(),
});

export const TRIGGER_RUN_STATUSES = ["running", "succeeded", "failed"] as const;

/** One run a webhook or schedule started (GET /api/v1/trigger-runs/{id}). */
export const triggerRunSchema = z
  .object({
    id: z.string(),
    chatflowId: z.string(),
    source: z.enum(["webhook", "schedule"]),
    scheduleId: z.string().nullable(),
    status: z.enum(TRIGGER_RUN_STATUSES),
    /** The prediction's answer once it succeeded (the synchronous webhook answer's shape). */
    answer: z.unknown().optional(),
    executionId: z.string().nullable(),
    chatMessageId: z.string().nullable(),
    error: z.string().nullable(),
    /** A schedule's run: the cron time it ran for. */
    tickAt: isoDate.nullable(),
    createdAt: isoDate,
    finishedAt: isoDate.nullable(),
  })
  .meta({ id: "TriggerRun" });
export type TriggerRunDto = z.infer<typeof triggerRunSchema>;

/** The 202 of an asynchronous webhook call. */
export const webhookAcceptedSchema = z
  .object({
    runId: z.string(),
    status: z.literal("running"),
    /** Where to read the run's status and answer. */
    statusUrl: z.string(),
  })
  .meta({ id: "WebhookAccepted" });

/** A schedule's fixed input: a question, or an agentflow Start form's fields. */
export const scheduleInputSchema = z
  .strictObject({
    question: z.string().max(20_000).optional(),
    form: z.record(z.string().max(200), z.unknown()).optional(),
  })
  .refine((i) => (i.question?.trim() ?? "") !== "" || !!i.form, {
    message: "give a question or form fields",
    path: ["question"],
  });

const scheduleFields = {
  name: z.string().max(200),
  /** Five fields (minute hour day month weekday), or six with seconds first. */
  cron: z.string().min(1).max(200),
  /** An IANA time zone the cron expression is read in, e.g. Europe/Paris. */
  timezone: z.string().min(1).max(100),
  input: scheduleInputSchema,
  enabled: z.boolean(),
};

/** POST /api/v1/schedules. */
export const createScheduleSchema = z.strictObject({
  chatflowId: z.uuid({ error: "must be a UUID" }),
  ...scheduleFields,
  name: scheduleFields.name.optional(),
  timezone: scheduleFields.timezone.optional(),
  enabled: scheduleFields.enabled.optional(),
});
export type CreateSchedule = z.infer<typeof createScheduleSchema>;

/** PUT /api/v1/schedules/{id}: any subset. */
export const updateScheduleSchema = z.strictObject({
  name: scheduleFields.name.optional(),
  cron: scheduleFields.cron.optional(),
  timezone: scheduleFields.timezone.optional(),
  input: scheduleFields.input.optional(),
  enabled: scheduleFields.enabled.optional(),
});
export type UpdateSchedule = z.infer<typeof updateScheduleSchema>;

/** GET /api/v1/schedules: a flow's schedules, or all the caller may manage. */
export const listSchedulesQuerySchema = z.object({ chatflowId: z.uuid({ error: "must be a UUID" }).optional() });

export const scheduleSchema = z
  .object({
    id: z.string(),
    chatflowId: z.string(),
    name: z.string(),
    cron: z.string(),
    timezone: z.string(),
    input: z.object({ question: z.string().optional(), form: z.record(z.string(), z.unknown()).optional() }),
    enabled: z.boolean(),
    /** When it runs next (null while disabled). */
    nextRunAt: isoDate.nullable(),
    lastRun: z
      .object({
        at: isoDate,
        status: z.enum(["succeeded", "failed"]),
        runId: z.string().nullable(),
        executionId: z.string().nullable(),
        chatMessageId: z.string().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: "Schedule" });
export type ScheduleDto = z.infer<typeof scheduleSchema>;
