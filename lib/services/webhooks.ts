import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import type { PredictionBody } from "@/common/schemas/prediction";
import type { UpdateWebhook, WebhookSettings } from "@/common/schemas/triggers";
import type { Chatflow, FlowWebhook } from "../db/generated/client";
import { findWebhook, upsertWebhook } from "../db/queries/triggers";
import { decryptJson, encryptJson } from "../security/secrets";
import { enforceRateLimit, publicRateLimit, type RateLimitState, rateLimitHeaders } from "../access/rate-limit";
import { getChatflowOrThrow } from "./chatflows";
import { startFormFields } from "./trigger-input";
import { publishedFlowForTrigger, type StartedTriggerRun, startTriggerRun } from "./trigger-runs";

/**
 * A flow's webhook: POST /api/v1/webhook/{chatflowId} runs its published version with the request
 * body as input. Off until its manager turns it on. With a secret, every call must be signed:
 * `X-Switchyard-Timestamp: <unix seconds>` and `X-Switchyard-Signature: sha256=<hex>`, the hex
 * HMAC-SHA256 of `<timestamp>.<raw body>` under the secret; a timestamp more than five minutes from
 * the server's clock is refused, so a captured call cannot be replayed later.
 */

export const SIGNATURE_HEADER = "x-switchyard-signature";
export const TIMESTAMP_HEADER = "x-switchyard-timestamp";
/** How far a signed call's timestamp may be from now, either way. */
const MAX_SKEW_SEC = 5 * 60;

const webhookPath = (chatflowId: string) => `/api/v1/webhook/${chatflowId}`;

function toSettings(chatflow: Chatflow, row: FlowWebhook | null, secret?: string): WebhookSettings {
  return {
    chatflowId: chatflow.id,
    enabled: row?.enabled ?? false,
    inputMode: row?.inputMode === "body" ? "body" : "question",
    hasSecret: !!row?.secretEncrypted,
    ...(secret ? { secret } : {}),
    path: webhookPath(chatflow.id),
    published: chatflow.publishedVersion !== null,
  };
}

/** GET /api/v1/chatflows/{id}/webhook: the settings (never the secret). */
export async function getWebhookSettings(chatflowId: string, caller: Caller): Promise<WebhookSettings> {
  const chatflow = await getChatflowOrThrow(chatflowId, caller, "chatflow.webhook");
  return toSettings(chatflow, await findWebhook({ chatflowId }));
}

/** PUT /api/v1/chatflows/{id}/webhook: turn on or off, choose the input, make (shown once) or drop the secret. */
export async function updateWebhookSettings(
  chatflowId: string,
  change: UpdateWebhook,
  caller: Caller,
): Promise<WebhookSettings> {
  const chatflow = await getChatflowOrThrow(chatflowId, caller, "chatflow.webhook");
  const secret = change.rotateSecret ? `whsec_${randomBytes(24).toString("hex")}` : undefined;
  const row = await upsertWebhook({
    chatflowId,
    data: {
      ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
      ...(change.inputMode ? { inputMode: change.inputMode } : {}),
      ...(secret ? { secretEncrypted: encryptJson(secret) } : {}),
      ...(change.removeSecret ? { secretEncrypted: null } : {}),
    },
  });
  return toSettings(chatflow, row, secret);
}

/** The hex HMAC-SHA256 a sender puts in X-Switchyard-Signature (after `sha256=`). */
export function signWebhook(secret: string, timestamp: string, rawBody: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/** 401 unless the call carries a fresh timestamp and a valid signature of it and the body. */
function verifySignature(secret: string, headers: Headers, raw: Buffer, now: number): void {
  const unsigned = (why: string) => new AppError("unauthorized", `Webhook signature refused: ${why}. Nothing was run.`);
  const timestamp = headers.get(TIMESTAMP_HEADER) ?? "";
  const signature = headers.get(SIGNATURE_HEADER) ?? "";
  if (!signature) throw unsigned(`this webhook needs a signature (${SIGNATURE_HEADER}: sha256=<hex>)`);
  if (!/^\d{1,12}$/.test(timestamp))
    throw unsigned(`send ${TIMESTAMP_HEADER} with the Unix time in seconds that the signature covers`);
  if (Math.abs(now / 1000 - Number(timestamp)) > MAX_SKEW_SEC)
    throw unsigned(`${TIMESTAMP_HEADER} is more than five minutes from the server's time`);
  const sent = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim())?.[1];
  const expected = Buffer.from(signWebhook(secret, timestamp, raw), "hex");
  if (!sent || !timingSafeEqual(Buffer.from(sent.toLowerCase(), "hex"), expected))
    throw unsigned("the signature does not match the body");
}

/** The body as the run's input: a question, the whole body as text, or an agentflow Start form's fields. */
function inputOf(chatflow: Chatflow, mode: string, raw: Buffer, contentType: string): PredictionBody {
  const text = raw.toString("utf8");
  // PostgreSQL text cannot hold NUL: refused here rather than failing when the question is stored.
  if (text.includes("\u0000")) throw new AppError("bad_request", "body: contains a NUL character.");
  const fields = startFormFields(chatflow);
  if (!fields && mode === "body") {
    if (!text.trim())
      throw new AppError("validation_failed", "body: the webhook takes the body as the question; it was empty.");
    return { question: text };
  }
  if (!/^application\/(.+\+)?json\b/i.test(contentType))
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  let value: unknown;
  try {
    value = JSON.parse(text || "{}");
  } catch {
    throw new AppError("bad_request", "Body is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new AppError("validation_failed", "body: send a JSON object.");
  const body = value as Record<string, unknown>;
  if (fields) return { form: checkFormFields(fields, body) };
  if (typeof body.question !== "string" || !body.question.trim())
    throw new AppError("validation_failed", "question: send the question as a non-empty string.", {
      details: [{ field: "body.question", message: "required" }],
    });
  return { question: body.question };
}

/** An agentflow Start form's fields by name: every field given, no other field (400 naming it). */
function checkFormFields(fields: string[], body: Record<string, unknown>): Record<string, unknown> {
  const unknown = Object.keys(body).find((k) => !fields.includes(k));
  if (unknown)
    throw new AppError(
      "validation_failed",
      `${unknown}: this flow's form has no such field (it has ${fields.join(", ")}).`,
      {
        details: [{ field: `body.${unknown}`, message: "unknown form field" }],
      },
    );
  const missing = fields.find((f) => body[f] === undefined || body[f] === null || body[f] === "");
  if (missing)
    throw new AppError("validation_failed", `${missing}: this form field is required.`, {
      details: [{ field: `body.${missing}`, message: "required" }],
    });
  return body;
}

/** A webhook call that passed every check: the flow (at its published version) and its input. */
export type CheckedWebhookCall = { chatflow: Chatflow; body: PredictionBody; rateLimit?: RateLimitState };

/**
 * Counts a call against the flow's limit on anonymous callers per client address (the flow's own, else
 * PUBLIC_RATE_LIMIT_MAX per PUBLIC_RATE_LIMIT_WINDOW_SEC): 429 with Retry-After past it. Every call to
 * an enabled webhook counts, a refused signature included, so a secret cannot be guessed at speed.
 */
async function countWebhookCall(chatflow: Chatflow, clientIp: string): Promise<RateLimitState | undefined> {
  const limit = publicRateLimit(chatflow);
  return limit ? enforceRateLimit(`webhook:${chatflow.id}:${clientIp}`, limit.max, limit.windowSec * 1000) : undefined;
}

/** The same refusal, carrying where the caller stands against the limit (X-RateLimit-*). */
function withRateLimit(err: unknown, state: RateLimitState | undefined): unknown {
  if (!(err instanceof AppError) || !state) return err;
  return new AppError(err.code, err.message, {
    details: err.details,
    headers: { ...err.headers, ...rateLimitHeaders(state) },
    cause: err,
  });
}

/**
 * POST /api/v1/webhook/{id}, before anything runs: the webhook is on and the flow published (404 in
 * words), the call within the rate limit (429), the signature when a secret is set (401), the input
 * (400 naming the field). Refusals after the count carry the X-RateLimit-* headers.
 */
export async function checkWebhookCall(args: {
  chatflowId: string;
  headers: Headers;
  raw: Buffer;
  clientIp: string;
  now?: number;
}): Promise<CheckedWebhookCall> {
  const settings = await findWebhook({ chatflowId: args.chatflowId });
  if (!settings?.enabled)
    throw new AppError("not_found", `No webhook for flow ${args.chatflowId}: it does not exist or its webhook is off.`);
  const chatflow = await publishedFlowForTrigger(args.chatflowId, "webhook");
  const rateLimit = await countWebhookCall(chatflow, args.clientIp);
  try {
    if (settings.secretEncrypted)
      verifySignature(decryptJson<string>(settings.secretEncrypted), args.headers, args.raw, args.now ?? Date.now());
    const body = inputOf(chatflow, settings.inputMode, args.raw, args.headers.get("content-type") ?? "");
    return { chatflow, body, ...(rateLimit ? { rateLimit } : {}) };
  } catch (err) {
    throw withRateLimit(err, rateLimit);
  }
}

/** Starts the run of a checked webhook call; the caller waits on `done` (a synchronous answer) or answers 202 at once. */
export function startWebhookRun(call: CheckedWebhookCall, requestId?: string): Promise<StartedTriggerRun> {
  return startTriggerRun({
    chatflow: call.chatflow,
    body: call.body,
    source: "webhook",
    ...(requestId ? { requestId } : {}),
  });
}

/** Whose Idempotency-Key a webhook call's is: the flow's (a webhook has no caller of its own). */
export const webhookIdempotencyScope = (chatflowId: string) => `webhook:${chatflowId}`;
