import { idParams, route } from "@/lib/http/route";
import { domainUsers } from "@/common/access/permissions";
import { getAnalysisRun } from "@/lib/services/domains-analysis";
import { refuseOtherMethods } from "@/lib/http/methods";
import { analysisRunResponseSchema } from "@/common/schemas/responses";

/** GET /api/v1/domains/runs/{id}: progress of one analysis run. */
export const GET = route(
  {
    auth: domainUsers,
    params: idParams,
    docs: {
      tag: "Domains",
      summary: "Progress of one analysis run",
      description: "Its status, how many domains succeeded or failed out of the total, and when it finished.",
      responses: { 200: { description: "The run", schema: analysisRunResponseSchema } },
    },
  },
  async ({ params }) => getAnalysisRun(params.id),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
