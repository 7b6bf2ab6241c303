import { cursorParam } from "./pagination";
import { z } from "zod";
import { messageUsageSchema } from "./usage";
import { positiveIntParam } from "./query-params";
import { dateRange, isoDateParam } from "./chat-message-dates";
import type { sessionsResponseSchema } from "./responses";

/** Most records one GET of the Message API returns; page through with `page` for more. */
export const MESSAGES_MAX_LIMIT = 1000;

const idLike = z.string().trim().min(1).max(200);
const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v);

type ChatTypeName = "INTERNAL" | "EXTERNAL";
const isChatType = (t: string): t is ChatTypeName => t === "INTERNAL" || t === "EXTERNAL";

/** `chatType` as the OpenAPI document shows it: one type or a comma list (a JSON array is read too). */
const CHAT_TYPE_PARAM = {
  type: "string",
  pattern: "^(INTERNAL|EXTERNAL)(,(INTERNAL|EXTERNAL))*$",
  description:
    'INTERNAL, EXTERNAL or both, comma-separated (Flowise\'s JSON array `["INTERNAL","EXTERNAL"]` is read too)',
};

/** Empties a rendered JSON schema and gives it `schema`'s keys. */
function replaceSchema(target: Record<string, unknown>, schema: Record<string, unknown>) {
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, schema);
}

/** Filters shared by GET and DELETE of /api/v1/chatmessage/{chatflow_id}. */
const filterFields = {
  sessionId: idLike.optional(),
  chatId: idLike.optional(),
  // One type, a comma list or Flowise's JSON array (`["INTERNAL","EXTERNAL"]`); both types: no filter.
  chatType: z
    .preprocess(
      (v) =>
        typeof v === "string"
          ? v
              .replace(/[[\]"\s]/g, "")
              .toUpperCase()
              .split(",")
              .filter(Boolean)
          : v,
      z
        .array(z.string())
        .min(1, "must be INTERNAL or EXTERNAL")
        .refine((types) => types.every(isChatType), "must be INTERNAL or EXTERNAL"),
    )
    .transform((types) => (new Set(types).size === 1 ? (types[0] as ChatTypeName) : undefined))
    // The document shows the text the parameter is, not the list it is read into.
    .meta({ override: ({ jsonSchema }) => void replaceSchema(jsonSchema, CHAT_TYPE_PARAM) })
    .optional(),
  messageId: z.uuid({ error: "must be a message UUID" }).optional(),
  startDate: isoDateParam.optional(),
  endDate: isoDateParam.optional(),
  // Stored as the memory node's label ("Buffer Memory"); a name no message has matches nothing.
  memoryType: z
    .string()
    .trim()
    .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._()-]{0,99}$/u, 'must be a memory type name such as "Buffer Memory"')
    .optional(),
  // Flowise's feedback filters: `feedbackType` keeps the exchanges (the answer and its question)
  // rated so, `feedback=true` those rated at all (`false`: the others). Every record carries its
  // rating whatever the filters (Flowise joins it only with `feedback=true`).
  feedback: z
    .preprocess(
      (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
      z.enum(["true", "false"], { error: "must be true or false" }),
    )
    .transform((v) => v === "true")
    .optional(),
  // One rating, a comma list or Flowise's JSON array (`["THUMBS_UP","THUMBS_DOWN"]`).
  feedbackType: z
    .preprocess(
      (v) =>
        typeof v === "string"
          ? v
              .replace(/[[\]"\s]/g, "")
              .toUpperCase()
              .split(",")
              .filter(Boolean)
          : v,
      z
        .array(z.enum(["THUMBS_UP", "THUMBS_DOWN"], { error: "must be THUMBS_UP or THUMBS_DOWN" }))
        .min(1, "must be THUMBS_UP or THUMBS_DOWN"),
    )
    .optional(),
};

// Parameters these schemas do not declare are refused before them, 400 naming them (route() →
// readQuery in the HTTP layer's input-checks.ts): a typo never widens a DELETE.
const sortEnum = z.preprocess(upper, z.enum(["ASC", "DESC"], { error: "must be ASC or DESC" }));

function checkRange(
  q: { startDate?: { at: Date }; endDate?: { at: Date }; feedback?: boolean; feedbackType?: string[] },
  ctx: z.RefinementCtx,
) {
  if (q.startDate && q.endDate && q.startDate.at > q.endDate.at) {
    ctx.addIssue({ code: "custom", path: ["startDate"], message: "The start date must not be after the end date." });
  }
  if (q.feedback === false && q.feedbackType?.length) {
    ctx.addIssue({ code: "custom", path: ["feedbackType"], message: "cannot be combined with feedback=false" });
  }
}

/** The feedback filters as one: undefined (none), "none" (unrated), "any" or a rating. */
function feedbackFilter(feedback?: boolean, feedbackType?: ("THUMBS_UP" | "THUMBS_DOWN")[]) {
  // Both ratings asked for: any rating.
  if (feedbackType) return new Set(feedbackType).size === 1 ? feedbackType[0] : ("any" as const);
  if (feedback === undefined) return undefined;
  return feedback ? ("any" as const) : ("none" as const);
}

/** `page` (an offset) and `cursor` (where the page starts) contradict each other. */
function refusePageWithCursor(q: { page?: number; cursor?: unknown }, ctx: z.RefinementCtx) {
  if (q.cursor && q.page)
    ctx.addIssue({
      code: "custom",
      path: ["page"],
      message: "cannot be combined with cursor (a cursor names where the page starts)",
    });
}

/** GET query: filters, `sort` (or Flowise's `order`) ASC|DESC, `page` from 1, `limit` up to the cap. */
export const listChatMessagesQuery = z
  .object({
    ...filterFields,
    sort: sortEnum.optional(),
    order: sortEnum.optional(),
    page: positiveIntParam().optional(),
    limit: positiveIntParam(MESSAGES_MAX_LIMIT).optional(),
    cursor: cursorParam("chatmessage").optional(),
  })
  .superRefine(checkRange)
  .superRefine(refusePageWithCursor)
  .transform(({ startDate, endDate, sort, order, page, limit, feedback, feedbackType, ...rest }) => ({
    ...rest,
    createdAt: dateRange(startDate, endDate),
    feedback: feedbackFilter(feedback, feedbackType),
    direction: (sort ?? order ?? "ASC") === "ASC" ? ("asc" as const) : ("desc" as const),
    page: page ?? 1,
    limit: limit ?? MESSAGES_MAX_LIMIT,
  }));

/** A Flowise boolean query flag: `true` or `false`. */
const flowiseFlag = z
  .preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() : v),
    z.enum(["true", "false"], { error: "must be true or false" }),
  )
  .optional();

/** DELETE query: the same filters; paging would make "delete what matches" ambiguous, so it is refused. */
export const deleteChatMessagesQuery = z
  .object({
    ...filterFields,
    sort: sortEnum.optional(),
    order: sortEnum.optional(),
    page: z.never({ error: "is not accepted by DELETE: it removes every matching message" }).optional(),
    limit: z.never({ error: "is not accepted by DELETE: it removes every matching message" }).optional(),
    // Flowise's studio sends these; here a delete always removes the messages, and with them the
    // session's memory (it is read from them), so both are accepted and change nothing.
    hardDelete: flowiseFlag,
    isClearFromViewMessageDialog: flowiseFlag,
  })
  .superRefine(checkRange)
  .transform(
    ({
      startDate,
      endDate,
      sort: _s,
      order: _o,
      page: _p,
      limit: _l,
      hardDelete: _h,
      isClearFromViewMessageDialog: _c,
      feedback,
      feedbackType,
      ...rest
    }) => ({
      ...rest,
      createdAt: dateRange(startDate, endDate),
      feedback: feedbackFilter(feedback, feedbackType),
    }),
  );

/** Sessions overview (studio Conversations view): date and type filters plus paging. */
export const listSessionsQuery = z
  .object({
    chatType: filterFields.chatType,
    startDate: filterFields.startDate,
    endDate: filterFields.endDate,
    page: positiveIntParam().optional(),
    limit: positiveIntParam(100).optional(),
    cursor: cursorParam("sessions").optional(),
  })
  .superRefine(checkRange)
  .superRefine(refusePageWithCursor)
  .transform(({ startDate, endDate, page, limit, ...rest }) => ({
    ...rest,
    createdAt: dateRange(startDate, endDate),
    page: page ?? 1,
    limit: limit ?? 20,
  }));

export type ChatMessageFilters = z.infer<typeof deleteChatMessagesQuery>;
export type ListChatMessagesQuery = z.infer<typeof listChatMessagesQuery>;
export type ListSessionsQuery = z.infer<typeof listSessionsQuery>;

/** One stored message as the Message API returns it (Flowise's field names). */
export const chatMessageRecordSchema = z
  .object({
    id: z.string(),
    role: z.enum(["userMessage", "apiMessage"]),
    chatflowid: z.string(),
    content: z.string(),
    sessionId: z.string(),
    chatId: z.string(),
    chatType: z.enum(["INTERNAL", "EXTERNAL"]),
    memoryType: z.string().nullable(),
    /** The chatflow version that answered (answers; null for questions and older answers). */
    chatflowVersion: z.number().int().nullable(),
    sourceDocuments: z.unknown().meta({ description: "The answer's source documents as stored, or null" }),
    usedTools: z.unknown().meta({ description: "The tools the answer used as stored, or null" }),
    fileUploads: z
      .array(z.object({ type: z.string(), name: z.string(), mime: z.string(), path: z.string() }))
      .nullable(),
    createdDate: z.string(),
    /** An answer's tokens, models, cost and time (ours; absent for questions and answers stored before usage was). */
    usage: messageUsageSchema.optional(),
    /** The answer's rating (Flowise's field), or null. */
    feedback: z
      .object({
        id: z.string(),
        rating: z.enum(["THUMBS_UP", "THUMBS_DOWN"]),
        content: z.string(),
        createdDate: z.string(),
      })
      .nullable(),
  })
  .meta({ id: "ChatMessage" });

export type ChatMessageRecord = z.infer<typeof chatMessageRecordSchema>;

/** One session in the Conversations view. */
export type SessionSummary = z.output<typeof sessionsResponseSchema>["data"][number];
