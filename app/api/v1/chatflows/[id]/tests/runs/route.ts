import { idParams, route } from "@/lib/http/route";
import { testChatflows } from "@/common/access/permissions";
import { listTestRunsQuery } from "@/common/schemas/chatflow-tests";
import { listChatflowTestRuns } from "@/lib/services/chatflow-tests/runs";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/chatflows/{id}/tests/runs[?version=N]: the newest test runs, without results. */
export const GET = route(
  { auth: testChatflows, params: idParams, query: listTestRunsQuery },
  async ({ params, query, caller }) => listChatflowTestRuns(params.id, query, caller),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
