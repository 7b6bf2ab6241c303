import { route } from "@/lib/http/route";
import { testChatflows } from "@/common/access/permissions";
import { testRunParams } from "@/common/schemas/chatflow-tests";
import { getTestRun } from "@/lib/services/chatflow-tests/runs";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/chatflows/{id}/tests/runs/{runId}: a run's status, counts and results so far. */
export const GET = route({ auth: testChatflows, params: testRunParams }, async ({ params, caller }) =>
  getTestRun(params.id, params.runId, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
