import { triggerRunSchema } from "@/common/schemas/triggers";
import { refuseOtherMethods } from "@/lib/http/methods";
import { openRouteWithId } from "@/lib/http/open-route-with-id";
import { getTriggerRun } from "@/lib/services/trigger-runs";

export const GET = openRouteWithId(
  {
    docs: {
      tag: "Webhooks and schedules",
      summary: "Read a webhook's or schedule's run",
      description:
        "Its status (running, succeeded, failed), the answer once it succeeded (the prediction's shape), the agentflow execution or stored message it made, the error when it failed. The run id is the capability: it is answered only to whoever started the run (a webhook's 202) and to the flow's managers (a schedule's runs).",
      callersNote: "whoever has the run id",
      responses: { 200: { description: "The run", schema: triggerRunSchema } },
      errors: [404],
    },
  },
  async ({ id }) => getTriggerRun(id),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
