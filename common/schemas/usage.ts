import { z } from "zod";
import { isoDateParam } from "./chat-message-dates";

/**
 * Usage and cost (`/api/v1/usage`): requests, failures, tokens, cost and latency of the answers of
 * the flows a caller may read, per UTC day or per model; and the model price table
 * (`/api/v1/usage/prices`, USD per million tokens) admins edit.
 */

/** The widest range one question may span (a day-by-day answer stays a year of rows at most). */
export const USAGE_MAX_DAYS = 366;
const DAY_MS = 86_400_000;
/** When `from` is not given: this many days before `to`. */
export const USAGE_DEFAULT_DAYS = 30;

export const usageQuery = z
  .object({
    chatflowId: z.uuid({ error: "must be a chatflow UUID" }).optional(),
    from: isoDateParam.optional(),
    to: isoDateParam.optional(),
    groupBy: z.enum(["day", "model"], { error: "must be day or model" }).default("day"),
  })
  .transform((q, ctx) => {
    // A date-only `to` includes that whole UTC day; the range is half-open [from, to).
    const to = q.to ? new Date(q.to.at.getTime() + (q.to.dateOnly ? DAY_MS : 0)) : new Date();
    const from = q.from?.at ?? new Date(to.getTime() - USAGE_DEFAULT_DAYS * DAY_MS);
    if (from >= to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "must be before `to`" });
      return z.NEVER;
    }
    if (to.getTime() - from.getTime() > USAGE_MAX_DAYS * DAY_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["from"],
        message: `from and to must be at most ${USAGE_MAX_DAYS} days apart`,
      });
      return z.NEVER;
    }
    return { chatflowId: q.chatflowId, from, to, groupBy: q.groupBy };
  });

export type UsageQuery = z.output<typeof usageQuery>;

const usageFigures = {
  requests: z.number().int(),
  errors: z.number().int().meta({ description: "Runs that failed (no answer)" }),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  costUsd: z
    .number()
    .nullable()
    .meta({ description: "USD at the prices in force when each answer was stored; null when none was priced" }),
  unpricedRequests: z.number().int().meta({ description: "Answers whose model had no price (not counted in costUsd)" }),
  p50LatencyMs: z.number().nullable(),
  p95LatencyMs: z.number().nullable(),
};

export const usageGroupSchema = z.object({
  key: z
    .string()
    .meta({ description: "The UTC day (YYYY-MM-DD), or the model names (joined by ', '; empty: no model called)" }),
  ...usageFigures,
});

export const usageResponseSchema = z
  .object({
    chatflowId: z.string().nullable(),
    from: z.iso.datetime(),
    to: z.iso.datetime(),
    groupBy: z.enum(["day", "model"]),
    groups: z.array(usageGroupSchema),
    totals: z.object(usageFigures),
  })
  .meta({ id: "Usage" });

export type UsageResponse = z.infer<typeof usageResponseSchema>;
export type UsageGroup = z.infer<typeof usageGroupSchema>;

const price = z.number({ error: "must be a number" }).min(0, "must not be negative").max(100_000);

export const modelPriceSchema = z
  .object({
    model: z.string().trim().min(1).max(200),
    inputPerMTok: price.meta({ description: "USD per million prompt tokens" }),
    outputPerMTok: price.meta({ description: "USD per million completion tokens" }),
  })
  .strict();

/** PUT /api/v1/usage/prices: the admins' prices, all of them (a default not listed stays in force). */
export const putModelPricesSchema = z
  .object({ prices: z.array(modelPriceSchema).max(500) })
  .strict()
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.prices.forEach((p, i) => {
      const key = p.model.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: "custom", path: ["prices", i, "model"], message: `${p.model} is listed twice` });
      seen.add(key);
    });
  })
  .meta({ id: "ModelPricesUpdate" });

export const modelPricesResponseSchema = z
  .object({
    currency: z.literal("USD"),
    unit: z.literal("per 1M tokens"),
    defaultsAsOf: z.string().meta({ description: "When the built-in prices were taken from the providers' pages" }),
    prices: z.array(
      modelPriceSchema.extend({
        source: z.enum(["default", "admin"]),
      }),
    ),
  })
  .meta({ id: "ModelPrices" });

export type ModelPricesResponse = z.infer<typeof modelPricesResponseSchema>;

/** An answer's usage as stored with its message (Conversations, the Message API). */
export const messageUsageSchema = z.object({
  models: z.array(z.string()),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  estimated: z.boolean(),
  costUsd: z.number().nullable(),
  latencyMs: z.number().int(),
});

export type MessageUsage = z.infer<typeof messageUsageSchema>;
