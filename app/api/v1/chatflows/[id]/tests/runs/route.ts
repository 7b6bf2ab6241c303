import { pageOfQuery } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { idParams, route } from "@/lib/http/route";
import { testChatflows } from "@/common/access/permissions";
import { listTestRunsQuery, testRunSummarySchema } from "@/common/schemas/chatflow-tests";
import { listChatflowTestRuns } from "@/lib/services/chatflow-tests/runs";
import { refuseOtherMethods } from "@/lib/http/methods";
import { z } from "zod";

/** GET /api/v1/chatflows/{id}/tests/runs[?version=N]: the newest test runs, without results. */
export const GET = route(
  {
    auth: testChatflows,
    params: idParams,
    query: listTestRunsQuery,
    docs: {
      tag: "Chatflow tests",
      summary: "The newest 50 test runs (of one version with `version`)",
      description:
        "Each run's version, status and counts of passed and failed cases, without the results (read one run for those).",
      responses: {
        200: {
          description: "Runs, newest first, without results",
          schema: z.array(testRunSummarySchema),
          headers: PAGE_HEADER_DOCS,
        },
      },
    },
  },
  async ({ req, params, query: { limit, cursor, ...filters }, caller }) =>
    pagedArray(req, await listChatflowTestRuns(params.id, filters, caller, pageOfQuery({ limit, cursor }))),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
