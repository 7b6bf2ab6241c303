import { pageParams } from "./pagination";
import { z } from "zod";
import { dateRange, isoDateParam } from "./chat-message-dates";
import type { feedbackResponseSchema, leadResponseSchema } from "./responses";

/** Flowise's ratings of an answer (the widget's thumbs). */
export const FEEDBACK_RATINGS = ["THUMBS_UP", "THUMBS_DOWN"] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

const rating = z.enum(FEEDBACK_RATINGS, { error: "must be THUMBS_UP or THUMBS_DOWN" });
const chatId = z.string().trim().min(1, "is required").max(200);
const content = z.string().max(5000, "must be at most 5000 characters");

/**
 * POST /api/v1/feedback[/{chatflowid}]: Flowise's body. One rating per message: a second POST for
 * the same message replaces the first.
 */
export const createFeedbackSchema = z
  .object({
    chatflowid: z.uuid({ error: "must be a chatflow UUID" }).optional(),
    chatId,
    messageId: z.uuid({ error: "must be a message UUID" }),
    rating,
    content: content.optional(),
  })
  .strict();

/** POST /api/v1/feedback (the chatflow is not in the path): `chatflowid` is required. */
export const createFeedbackWithChatflowSchema = createFeedbackSchema.required({ chatflowid: true });

/** PUT /api/v1/feedback/{id}: the widget sends the comment typed after a thumb; the rating may change too. */
export const updateFeedbackSchema = z
  .object({
    // Flowise clients echo these back; they must name the stored feedback's chat, never move it.
    chatflowid: z.uuid({ error: "must be a chatflow UUID" }).optional(),
    chatId: chatId.optional(),
    messageId: z.uuid({ error: "must be a message UUID" }).optional(),
    rating: rating.optional(),
    content: content.optional(),
  })
  .strict();

const sortOrder = z.preprocess(
  (v) => (typeof v === "string" ? v.trim().toUpperCase() : v),
  z.enum(["ASC", "DESC"], { error: "must be ASC or DESC" }),
);

/** GET /api/v1/feedback/{chatflowid}: Flowise's filters. */
export const listFeedbackQuery = z
  .object({
    chatId: chatId.optional(),
    sortOrder: sortOrder.optional(),
    startDate: isoDateParam.optional(),
    endDate: isoDateParam.optional(),
    ...pageParams("feedback"),
  })
  .transform(({ startDate, endDate, sortOrder: order, ...rest }) => ({
    ...rest,
    direction: (order ?? "ASC") === "ASC" ? ("asc" as const) : ("desc" as const),
    createdAt: dateRange(startDate, endDate),
  }));

/** Flowise's shape of a stored feedback. */
export type FeedbackRecord = z.output<typeof feedbackResponseSchema>;

const leadText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

/** POST /api/v1/leads: the widget's lead form (name, email, phone as the chatflow asks for them). */
export const createLeadSchema = z
  .object({
    chatflowid: z.uuid({ error: "must be a chatflow UUID" }),
    chatId,
    name: leadText(200).optional(),
    email: z.union([z.literal(""), z.email({ error: "must be an e-mail address" }).max(320)]).optional(),
    phone: leadText(50)
      .regex(/^[0-9+()./\s-]*$/, "must be a phone number (digits, spaces, + ( ) - . /)")
      .optional(),
  })
  .strict()
  .refine((l) => !!(l.name || l.email || l.phone), { message: "name, email or phone is required", path: ["name"] })
  .meta({
    override: {
      anyOf: [
        { required: ["name"], properties: { name: { pattern: "\\S" } } },
        { required: ["email"], properties: { email: { minLength: 1 } } },
        { required: ["phone"], properties: { phone: { pattern: "\\S" } } },
      ],
    },
  });

/** GET /api/v1/leads/{chatflowid}. */
export const listLeadsQuery = z.object({ chatId: chatId.optional(), ...pageParams("leads") }).transform((q) => q);

/** Flowise's shape of a stored lead. */
export type LeadRecord = z.output<typeof leadResponseSchema>;
