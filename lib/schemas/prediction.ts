import { z } from "zod";

export const historyMessageSchema = z.object({
  role: z.enum(["apiMessage", "userMessage"]),
  content: z.string().max(50_000),
});

export const uploadItemSchema = z.object({
  /** A base64 data URL. Size is checked against the configured cap after decoding. */
  data: z.string().min(1),
  type: z.enum(["file", "audio"]),
  name: z.string().max(255).optional(),
  mime: z.string().max(120).optional(),
});

const idLike = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:@-]+$/, "may hold letters, digits and . _ : @ - only");

/**
 * POST /api/v1/prediction/{id}. Unknown top-level fields are ignored (Flowise clients send
 * `chatflowId` in the body); overrideConfig keys are checked against the chatflow's allow-list.
 */
export const predictionBodySchema = z
  .object({
    question: z.string().max(50_000).optional(),
    overrideConfig: z
      .looseObject({ sessionId: idLike.optional(), returnSourceDocuments: z.boolean().optional() })
      .optional(),
    history: z.array(historyMessageSchema).max(200).optional(),
    uploads: z.array(uploadItemSchema).max(20).optional(),
    streaming: z.boolean().optional(),
    chatId: idLike.optional(),
  })
  .refine((b) => (b.question?.trim() ?? "") !== "" || b.uploads?.some((u) => u.type === "audio"), {
    message: "is required unless an audio upload supplies it",
    path: ["question"],
  });

export type PredictionBody = z.infer<typeof predictionBodySchema>;
