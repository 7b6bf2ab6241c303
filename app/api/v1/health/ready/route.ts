import { openRoute } from "@/lib/http/route";
import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";
import { readiness } from "@/lib/services/health";
import { notReadyResponseSchema, readyResponseSchema } from "@/common/schemas/responses";

/**
 * Readiness: 200 `{status:"ready", checks}` when the database (and in queue mode Redis and at
 * least one worker) answer; else 503 `{status:"unavailable", checks, error:{code:"not_ready", message}}`
 * naming each failing check (the one answer that is more than the error shape, for load balancers
 * and people). No authentication; no secrets (addresses as host:port only).
 */
export const GET = openRoute(
  {
    docs: {
      tag: "Health",
      summary: "Readiness: the database, and in queue mode Redis and a worker, answer",
      description:
        "For load balancers: 200 when every check passes, else 503 naming each failing one. Addresses appear as host:port only.",
      responses: { 200: { description: "Every check passed", schema: readyResponseSchema } },
      errorBodies: {
        503: {
          description:
            "Not ready (Retry-After): the checks, and the error `not_ready` naming each failing one (addresses as host:port only)",
          schema: notReadyResponseSchema,
          headers: { "Retry-After": "Seconds to wait before asking again" },
        },
      },
    },
  },
  async () => {
    const result = await readiness();
    if (result.status === "ready") return json(result, 200, { "cache-control": "no-store" });
    const failing = Object.entries(result.checks)
      .filter(([, c]) => !c.ok)
      .map(([name, c]) => `${name}: ${c.error}`);
    return json({ ...result, error: { code: "not_ready", message: `Not ready: ${failing.join("; ")}.` } }, 503, {
      "retry-after": "5",
      "cache-control": "no-store",
    });
  },
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
