import { z } from "zod";

const role = z.enum(["apiMessage", "userMessage"]);

/** A history message as the service takes it. */
export const historyMessageSchema = z.object({
  role,
  content: z.string().max(50_000),
});
export type HistoryItem = z.infer<typeof historyMessageSchema>;

/**
 * A history message as clients send it: `{role, content}` (Flowise's documented shape) or
 * `{type, message}` (flowise-sdk's IMessage, which may carry both). Read into `{role, content}` by
 * toHistory (lib/services/prediction-input.ts).
 */
export const historyInputSchema = z
  .looseObject({
    role: role.optional(),
    content: z.string().max(50_000).optional(),
    type: role.optional(),
    message: z.string().max(50_000).optional(),
  })
  .superRefine((m, ctx) => {
    const r = m.role ?? m.type;
    const text = m.content ?? m.message;
    if (r === undefined || text === undefined) {
      ctx.addIssue({
        code: "custom",
        message: 'must be {role, content} or {type, message} with role/type "userMessage" or "apiMessage"',
      });
    } else if (m.role && m.type && m.role !== m.type) {
      ctx.addIssue({ code: "custom", message: `role "${m.role}" and type "${m.type}" disagree` });
    } else if (m.content !== undefined && m.message !== undefined && m.content !== m.message) {
      ctx.addIssue({ code: "custom", message: "content and message disagree" });
    }
  })
  // The document shows the two shapes apart (the check above also takes both, when they agree).
  .meta({
    override: {
      oneOf: [
        { required: ["role", "content"], properties: { type: false, message: false } },
        { required: ["type", "message"], properties: { role: false, content: false } },
      ],
    },
  });

/** An upload as the service takes it: a base64 data URL, size checked after decoding. */
export const uploadItemSchema = z.object({
  /** A base64 data URL. Size is checked against the configured cap after decoding. */
  data: z.string().min(1),
  type: z.enum(["file", "audio"]),
  name: z.string().max(255).optional(),
  mime: z.string().max(120).optional(),
});
export type UploadItem = z.infer<typeof uploadItemSchema>;

/** An upload as clients send it: a data URL (`file`, `audio`) or an http(s) URL of an image (`url`), fetched before the run. */
export const uploadInputSchema = z.discriminatedUnion("type", [
  uploadItemSchema.extend({ type: z.enum(["file", "audio"]) }),
  z.object({
    type: z.literal("url"),
    data: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).max(4096),
    name: z.string().max(255).optional(),
    mime: z.string().max(120).optional(),
  }),
]);
export type UploadInput = z.infer<typeof uploadInputSchema>;

const idLike = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:@-]+$/, "may hold letters, digits and . _ : @ - only");

/** Flowise's answer to a Human Input node: proceed or reject, the node it answers, optional feedback. */
export const humanInputSchema = z.object({
  type: z.enum(["proceed", "reject"]),
  startNodeId: z.string().min(1).max(200),
  feedback: z.string().max(50_000).optional(),
});

/** The two checks of predictionBodySchema's refinements below, as the OpenAPI document shows them. */
export const PREDICTION_BODY_RULES: Record<string, unknown> = {
  anyOf: [
    { required: ["question"], properties: { question: { pattern: "\\S" } } },
    { required: ["uploads"], properties: { uploads: { contains: { properties: { type: { const: "audio" } } } } } },
    { required: ["humanInput"] },
    { required: ["form"] },
  ],
  dependentRequired: { humanInput: ["chatId"] },
};

/**
 * POST /api/v1/prediction/{id} as clients send it (JSON, or a multipart form's fields read into this
 * shape). Unknown top-level fields are ignored (Flowise clients send `chatflowId` in the body);
 * overrideConfig keys are checked against the chatflow's allow-list.
 */
export const predictionBodySchema = z
  .object({
    question: z.string().max(50_000).optional(),
    overrideConfig: z
      .looseObject({ sessionId: idLike.optional(), returnSourceDocuments: z.boolean().optional() })
      .optional(),
    history: z.array(historyInputSchema).max(200).optional(),
    uploads: z.array(uploadInputSchema).max(20).optional(),
    streaming: z.boolean().optional(),
    chatId: idLike.optional(),
    /** Agentflows: the answer to a run paused at a Human Input node (Flowise's shape); needs `chatId`. */
    humanInput: humanInputSchema.optional(),
    /** Agentflows whose Start takes a form: its fields by name (Flowise's `form`). */
    form: z.record(z.string().max(200), z.unknown()).optional(),
  })
  .refine(
    (b) =>
      (b.question?.trim() ?? "") !== "" || b.uploads?.some((u) => u.type === "audio") || !!b.humanInput || !!b.form,
    {
      // A resume (humanInput) or a form needs no question; the message stays the chatflows' own.
      message: "is required unless an audio upload supplies it",
      path: ["question"],
    },
  )
  .refine((b) => !b.humanInput || b.chatId, {
    message: "is required with humanInput: the chat whose paused run it answers",
    path: ["chatId"],
  })
  .meta({ override: ({ jsonSchema }) => void Object.assign(jsonSchema, PREDICTION_BODY_RULES) });

/** What a client sent, checked. */
export type PredictionInput = z.infer<typeof predictionBodySchema>;

/**
 * What the prediction service takes: history as `{role, content}`; uploads as sent, `url` ones
 * fetched into data URLs by the service (after access checks) before they are checked like the rest.
 */
export type PredictionBody = Omit<PredictionInput, "history"> & { history?: HistoryItem[] };

/** Largest chatflow version number (a PostgreSQL integer). */
const MAX_VERSION = 2_147_483_647;

/**
 * Query of POST /api/v1/prediction/{id}: `version` pins the chatflow version to run (a number, or
 * `draft` for the latest); only the chatflow's managers may (403 otherwise). Absent: the published one.
 */
export const predictionQuerySchema = z.object({
  version: z
    .string()
    .regex(/^(draft|[1-9][0-9]{0,9})$/, 'must be a version number (1, 2, …) or "draft"')
    .transform((v) => (v === "draft" ? ("draft" as const) : Number(v)))
    .refine((v) => v === "draft" || v <= MAX_VERSION, `must be at most ${MAX_VERSION}`)
    .optional(),
});
