import { AppError } from "@/common/errors";
import { predictionResponseSchema } from "@/common/schemas/prediction-stream";
import { webhookAcceptedSchema } from "@/common/schemas/triggers";
import { clientIp } from "@/lib/access/client-ip";
import { rateLimitHeaders } from "@/lib/access/rate-limit";
import { DEFAULT_JSON_MAX_BYTES, readBodyCapped } from "@/lib/http/body";
import { answerOnce, idempotencyKeyOf } from "@/lib/http/idempotency";
import { refuseOtherMethods } from "@/lib/http/methods";
import { openRouteWithId } from "@/lib/http/open-route-with-id";
import { json } from "@/lib/http/responses";
import {
  type CheckedWebhookCall,
  checkWebhookCall,
  startWebhookRun,
  webhookIdempotencyScope,
} from "@/lib/services/webhooks";

/** `?async=true` or `Prefer: respond-async` (RFC 7240): answer 202 at once. */
function wantsAsync(req: Request): boolean {
  const asked = new URL(req.url).searchParams.get("async");
  if (asked !== null && asked !== "true" && asked !== "false")
    throw new AppError("validation_failed", `async: must be true or false (got "${asked.slice(0, 20)}").`);
  return asked === "true" || /(^|[\s,;])respond-async\b/i.test(req.headers.get("prefer") ?? "");
}

/** Runs a checked call: the answer, or 202 with the run to poll. */
async function runCall(checked: CheckedWebhookCall, async: boolean, requestId: string): Promise<Response> {
  const started = await startWebhookRun(checked, requestId);
  if (!async) return json(await started.done);
  started.done.catch(() => {}); // recorded on the run (failed, with its error)
  const statusUrl = `/api/v1/trigger-runs/${started.run.id}`;
  return json({ runId: started.run.id, status: "running", statusUrl }, 202, {
    location: statusUrl,
    "preference-applied": "respond-async",
  });
}

/** Where the caller stands against the flow's limit (absent when no limit applies). */
const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit": "Calls allowed per window, for this flow and client address",
  "X-RateLimit-Remaining": "Calls left in the window",
  "X-RateLimit-Reset": "Seconds until the window resets",
};

export const POST = openRouteWithId(
  {
    idempotency: {},
    docs: {
      tag: "Webhooks and schedules",
      summary: "Run a flow from a webhook",
      description:
        "Runs the flow's published version with the body as its input: a JSON object's `question` (or, with the input mode `body`, the whole body as text); for an agentflow whose Start takes a form, the JSON object's fields are the form's (every field required, no other). Off unless turned on (PUT /chatflows/{id}/webhook): 404. With a secret, send `X-Switchyard-Timestamp` (Unix seconds, within five minutes) and `X-Switchyard-Signature: sha256=<hex HMAC-SHA256 of \"<timestamp>.<raw body>\">`; a missing or wrong one is 401 and nothing runs. Rate limited per flow and client address (the flow's own limit, else the server's default for anonymous callers), a refused signature included. Answers the prediction's answer, or with `?async=true` or `Prefer: respond-async` 202 and the run to poll (GET /trigger-runs/{id}). An `Idempotency-Key` is the flow's (checked after the signature): the same key and body within 24 hours answer the stored answer (the same run id for a 202) and run nothing. No API key is read.",
      callersNote: "anyone who has the URL (and the secret, when one is set)",
      responses: {
        200: { description: "The run's answer", schema: predictionResponseSchema, headers: RATE_LIMIT_HEADERS },
        202: {
          description: "Started; poll statusUrl",
          schema: webhookAcceptedSchema,
          headers: {
            Location: "The run's status URL",
            "Preference-Applied": "respond-async",
            ...RATE_LIMIT_HEADERS,
          },
        },
      },
      errors: [400, 401, 404, 413, 415],
      rateLimited: true,
    },
  },
  async ({ req, id, requestId, log }) => {
    const async = wantsAsync(req);
    const key = idempotencyKeyOf(req);
    const raw = await readBodyCapped(req, DEFAULT_JSON_MAX_BYTES, "Body");
    // Checked before the key is looked at: a stored answer is given only to a caller who may run the flow.
    const checked = await checkWebhookCall({ chatflowId: id, headers: req.headers, raw, clientIp: clientIp(req) });
    const res =
      key === undefined
        ? await runCall(checked, async, requestId)
        : await answerOnce({
            req,
            scope: webhookIdempotencyScope(id),
            key,
            bytes: raw,
            log,
            requestId,
            run: () => runCall(checked, async, requestId),
          });
    for (const [name, value] of Object.entries(rateLimitHeaders(checked.rateLimit))) res.headers.set(name, value);
    return res;
  },
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
