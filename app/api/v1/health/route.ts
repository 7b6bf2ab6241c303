import { openRoute } from "@/lib/http/route";
import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";
import { liveness } from "@/lib/services/health";
import { livenessResponseSchema } from "@/common/schemas/responses";

/** Liveness: the process answers. No authentication (load balancers) and no dependency asked. */
export const GET = openRoute(
  {
    docs: {
      tag: "Health",
      summary: "Liveness: the process answers",
      description: "Asks no dependency (load balancers call it often).",
      responses: { 200: { description: "Alive, with the mode and uptime", schema: livenessResponseSchema } },
    },
  },
  async () => json(liveness(), 200, { "cache-control": "no-store" }),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
