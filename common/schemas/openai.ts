import { z } from "zod";
import { errorResponseSchema } from "./responses";

/**
 * The OpenAI-compatible API (`/api/v1/openai/…`): what OpenAI clients send and what they get, as far
 * as a flow can serve it. A flow is a "model" (its id, or its name); unknown fields a client adds
 * (temperature, top_p, tools, …) are accepted and ignored, since the flow's own nodes decide them.
 */

const MAX_TEXT = 50_000;

/** A content part: text is read; other parts (images, audio, files) are refused by name. */
const contentPartSchema = z.looseObject({ type: z.string().max(100), text: z.string().max(MAX_TEXT).optional() });

/** Message content: a string or an array of parts. */
const contentSchema = z.union([z.string().max(MAX_TEXT), z.array(contentPartSchema).max(100)]).nullable();

export const chatMessageSchema = z.looseObject({
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
  content: contentSchema.optional(),
  name: z.string().max(200).optional(),
});

/** POST /api/v1/openai/chat/completions. */
export const chatCompletionRequestSchema = z
  .looseObject({
    /** The flow to run: its id or its name. */
    model: z.string().min(1).max(200),
    messages: z.array(chatMessageSchema).min(1).max(500),
    stream: z.boolean().optional(),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
    /** How many answers: a flow gives one. */
    n: z.number().int().min(1).max(1).nullable().optional(),
    /** Names the session: the flow's memory keeps it between calls. */
    user: z.string().min(1).max(200).optional(),
  })
  .meta({ id: "ChatCompletionRequest" });
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/** An input item of the Responses API: a message (with or without `type: "message"`). */
const responseInputItemSchema = z.looseObject({
  type: z.string().max(100).optional(),
  role: z.enum(["system", "developer", "user", "assistant"]).optional(),
  content: z.union([z.string().max(MAX_TEXT), z.array(contentPartSchema).max(100)]).optional(),
});

/** POST /api/v1/openai/responses. */
export const responseRequestSchema = z
  .looseObject({
    model: z.string().min(1).max(200),
    input: z.union([z.string().min(1).max(MAX_TEXT), z.array(responseInputItemSchema).min(1).max(500)]),
    /** Accepted and ignored: the flow has its own instructions. */
    instructions: z.string().max(MAX_TEXT).nullable().optional(),
    stream: z.boolean().optional(),
    /** Names the session, as for chat completions. */
    user: z.string().min(1).max(200).optional(),
  })
  .meta({ id: "ResponseRequest" });
export type ResponseRequest = z.infer<typeof responseRequestSchema>;

export const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type ChatUsage = z.infer<typeof usageSchema>;

export const chatCompletionSchema = z
  .object({
    id: z.string(),
    object: z.literal("chat.completion"),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number().int(),
        message: z.object({ role: z.literal("assistant"), content: z.string(), refusal: z.null() }),
        logprobs: z.null(),
        finish_reason: z.literal("stop"),
      }),
    ),
    usage: usageSchema,
    /** The flow's session and chat: send the session back (`user`) to continue it. */
    session_id: z.string(),
    chat_id: z.string(),
  })
  .meta({ id: "ChatCompletion" });
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

export const modelSchema = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
  /** The flow's name (a model may also be asked for by it). */
  name: z.string(),
});

export const modelListSchema = z
  .object({ object: z.literal("list"), data: z.array(modelSchema) })
  .meta({ id: "ModelList" });
export type ModelList = z.infer<typeof modelListSchema>;

/** OpenAI's error shape: our error shape (`code`, `message`, `details`) plus OpenAI's `type` and `param`. */
export const openAIErrorSchema = z
  .intersection(
    errorResponseSchema,
    z.object({ error: z.looseObject({ type: z.string(), param: z.string().nullable() }) }),
  )
  .meta({ id: "OpenAIError" });
