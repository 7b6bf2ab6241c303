import { route } from "@/lib/http/route";
import { testChatflows } from "@/common/access/permissions";
import { testCaseBodySchema, testCaseParams, testCaseSchema } from "@/common/schemas/chatflow-tests";
import { deleteChatflowTestCase, updateChatflowTestCase } from "@/lib/services/chatflow-tests/cases";
import { refuseOtherMethods } from "@/lib/http/methods";
import { deletedResponseSchema } from "@/common/schemas/responses";

/** PUT /api/v1/chatflows/{id}/tests/{caseId}: replaces a case. */
export const PUT = route(
  {
    auth: testChatflows,
    params: testCaseParams,
    body: { json: testCaseBodySchema, maxBytes: 2 * 1024 * 1024 },
    docs: {
      tag: "Chatflow tests",
      summary: "Replace a test case",
      description: "The whole case: question, inputs and expectations, as when adding one.",
      responses: { 200: { description: "The case", schema: testCaseSchema } },
    },
  },
  async ({ params, body, caller }) => updateChatflowTestCase(params.id, params.caseId, body, caller),
);

/** DELETE /api/v1/chatflows/{id}/tests/{caseId}. */
export const DELETE = route(
  {
    auth: testChatflows,
    params: testCaseParams,
    docs: {
      tag: "Chatflow tests",
      summary: "Delete a test case",
      description: "Runs already made keep their results.",
      responses: { 200: { description: "Deleted", schema: deletedResponseSchema } },
    },
  },
  async ({ params, caller }) => deleteChatflowTestCase(params.id, params.caseId, caller),
);

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods("PUT", "DELETE");
