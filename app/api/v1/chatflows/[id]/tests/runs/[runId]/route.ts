import { route } from "@/lib/http/route";
import { testChatflows } from "@/common/access/permissions";
import { testRunParams, testRunSchema } from "@/common/schemas/chatflow-tests";
import { getTestRun } from "@/lib/services/chatflow-tests/runs";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/chatflows/{id}/tests/runs/{runId}: a run's status, counts and results so far. */
export const GET = route(
  {
    auth: testChatflows,
    params: testRunParams,
    docs: {
      tag: "Chatflow tests",
      summary: "A test run with its results",
      description:
        "Each result: the case, pass/fail per expectation with expected and actual, the answer, tool calls, source documents, latency and status.",
      responses: { 200: { description: "The run", schema: testRunSchema } },
    },
  },
  async ({ params, caller }) => getTestRun(params.id, params.runId, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
