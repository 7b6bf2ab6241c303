import { route } from "@/lib/http/route";
import { testChatflows } from "@/common/access/permissions";
import { testCaseBodySchema, testCaseParams } from "@/common/schemas/chatflow-tests";
import { deleteChatflowTestCase, updateChatflowTestCase } from "@/lib/services/chatflow-tests/cases";
import { refuseOtherMethods } from "@/lib/http/methods";

/** PUT /api/v1/chatflows/{id}/tests/{caseId}: replaces a case. */
export const PUT = route(
  { auth: testChatflows, params: testCaseParams, body: { json: testCaseBodySchema, maxBytes: 2 * 1024 * 1024 } },
  async ({ params, body, caller }) => updateChatflowTestCase(params.id, params.caseId, body, caller),
);

/** DELETE /api/v1/chatflows/{id}/tests/{caseId}. */
export const DELETE = route({ auth: testChatflows, params: testCaseParams }, async ({ params, caller }) =>
  deleteChatflowTestCase(params.id, params.caseId, caller),
);

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods("PUT", "DELETE");
