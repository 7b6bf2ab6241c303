import { idParams, route } from "@/lib/http/route";
import { manageSchedulesPolicy } from "@/common/access/permissions";
import { scheduleSchema, triggerRunSchema, updateScheduleSchema } from "@/common/schemas/triggers";
import { deletedResponseSchema } from "@/common/schemas/responses";
import { refuseOtherMethods } from "@/lib/http/methods";
import { deleteSchedule, getSchedule, updateSchedule } from "@/lib/services/schedules";

export const GET = route(
  {
    auth: manageSchedulesPolicy,
    params: idParams,
    docs: {
      tag: "Webhooks and schedules",
      summary: "Read a schedule",
      description: "The schedule with its next run, last result and its latest 20 runs.",
      callersNote: "builders and their keys: schedules of their own flows",
      responses: {
        200: { description: "The schedule", schema: scheduleSchema.extend({ runs: triggerRunSchema.array() }) },
      },
    },
  },
  async ({ params, caller }) => getSchedule(params.id, caller),
);

export const PUT = route(
  {
    auth: manageSchedulesPolicy,
    params: idParams,
    body: { json: updateScheduleSchema },
    docs: {
      tag: "Webhooks and schedules",
      summary: "Change a schedule",
      description:
        "Any subset of `name`, `cron`, `timezone`, `input`, `enabled`, checked as on creation; the next tick follows the change.",
      callersNote: "builders and their keys: schedules of their own flows",
      responses: { 200: { description: "The schedule", schema: scheduleSchema } },
      errors: [503],
    },
  },
  async ({ params, body, caller }) => updateSchedule(params.id, body, caller),
);

export const DELETE = route(
  {
    auth: manageSchedulesPolicy,
    params: idParams,
    docs: {
      tag: "Webhooks and schedules",
      summary: "Delete a schedule",
      description: "No tick runs after the answer; the runs it made stay readable by their ids.",
      callersNote: "builders and their keys: schedules of their own flows",
      responses: { 200: { description: "Deleted", schema: deletedResponseSchema } },
      errors: [503],
    },
  },
  async ({ params, caller }) => deleteSchedule(params.id, caller),
);

export const { POST, PATCH } = refuseOtherMethods("GET", "PUT", "DELETE");
