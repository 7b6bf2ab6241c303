import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { manageSchedulesPolicy } from "@/common/access/permissions";
import { createScheduleSchema, listSchedulesQuerySchema, scheduleSchema } from "@/common/schemas/triggers";
import { refuseOtherMethods } from "@/lib/http/methods";
import { createSchedule, listSchedulesFor } from "@/lib/services/schedules";

export const GET = route(
  {
    auth: manageSchedulesPolicy,
    query: listSchedulesQuerySchema.extend(pageParams("schedules")),
    docs: {
      tag: "Webhooks and schedules",
      summary: "List schedules",
      description: "Newest first, each with its next run and last result; `chatflowId` keeps one flow's.",
      callersNote: "builders and their keys: schedules of their own flows",
      responses: { 200: { description: "The schedules", schema: scheduleSchema.array(), headers: PAGE_HEADER_DOCS } },
      errors: [404],
    },
  },
  async ({ req, query, caller }) =>
    pagedArray(req, await listSchedulesFor(caller, query.chatflowId, pageOfQuery(query))),
);

export const POST = route(
  {
    auth: manageSchedulesPolicy,
    body: { json: createScheduleSchema },
    idempotency: {},
    docs: {
      tag: "Webhooks and schedules",
      summary: "Add a schedule",
      description:
        "Runs the flow's published version with `input` (a `question`, or an agentflow Start form's fields as `form`) whenever `cron` fires in `timezone` (IANA, default UTC). `cron`: five fields (minute hour day-of-month month day-of-week) or six with seconds first; a cron that does not parse or an unknown time zone is 400 naming it. Queue mode: one run per tick across every process (BullMQ job schedulers).",
      callersNote: "builders and their keys: their own flows",
      responses: { 200: { description: "The schedule, with its next run", schema: scheduleSchema } },
      errors: [503],
    },
  },
  async ({ body, caller }) => createSchedule(body, caller),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
