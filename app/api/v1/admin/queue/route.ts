import { queueViewers } from "@/common/access/permissions";
import { refuseOtherMethods } from "@/lib/http/methods";
import { route } from "@/lib/http/route";
import { queueView } from "@/lib/services/queue-view";
import { queueViewResponseSchema } from "@/common/schemas/responses";

/** The admin queue view: queue depths, running jobs and workers (admins only; no API key). */
export const GET = route(
  {
    auth: queueViewers,
    docs: {
      tag: "Health",
      summary: "Queue depths, running jobs and workers",
      description:
        "Queue mode reads the BullMQ queues and worker heartbeats (503 naming Redis when it is unreachable); embedded mode the in-process queues' counts.",
      responses: { 200: { description: "The queues now", schema: queueViewResponseSchema } },
      errors: [503],
    },
  },
  async ({ caller }) => queueView(caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
