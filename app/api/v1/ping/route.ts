import { json } from "@/lib/http/responses";
import { refuseOtherMethods } from "@/lib/http/methods";
import { declareRoute } from "@/lib/http/route-options";
import { requestIdOf } from "@/lib/http/request-id";
import { pingResponseSchema } from "@/common/schemas/responses";
import { tracedHandler } from "@/lib/telemetry/http";

/** Health check: answers without touching the database so load balancers stay cheap; with the request's id. */
export const GET = declareRoute(
  tracedHandler((req: Request) => {
    const requestId = requestIdOf(req);
    return json({ status: "ok", service: "switchyard", requestId }, 200, { "x-request-id": requestId });
  }),
  {
    auth: "public",
    docs: {
      tag: "Health",
      summary: "Health check",
      description: "Answers without touching the database.",
      responses: { 200: { description: "The server is up", schema: pingResponseSchema } },
    },
  },
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
