import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { route } from "@/lib/http/route";
import { domainUsers } from "@/common/access/permissions";
import { listRecentAnalysisRuns } from "@/lib/services/domains-analysis";
import { refuseOtherMethods } from "@/lib/http/methods";
import { analysisRunResponseSchema } from "@/common/schemas/responses";
import { z } from "zod";

/** GET /api/v1/domains/runs: the 20 most recent analysis runs with their progress. */
export const GET = route(
  {
    auth: domainUsers,
    query: z.object(pageParams("domain-runs")),
    docs: {
      tag: "Domains",
      summary: "The 20 most recent analysis runs",
      description: "Newest first, each with its status and counts of succeeded and failed domains.",
      responses: {
        200: {
          description: "Runs with progress",
          schema: z.array(analysisRunResponseSchema),
          headers: PAGE_HEADER_DOCS,
        },
      },
    },
  },
  async ({ req, query }) => pagedArray(req, await listRecentAnalysisRuns(pageOfQuery(query))),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
