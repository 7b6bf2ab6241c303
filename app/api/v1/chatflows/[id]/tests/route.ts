import { idParams, route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { testChatflows } from "@/common/access/permissions";
import { testCaseBodySchema } from "@/common/schemas/chatflow-tests";
import { createChatflowTestCase, listChatflowTestCases } from "@/lib/services/chatflow-tests/cases";
import { refuseOtherMethods } from "@/lib/http/methods";

/** GET /api/v1/chatflows/{id}/tests: the chatflow's test cases, oldest first. */
export const GET = route({ auth: testChatflows, params: idParams }, async ({ params, caller }) =>
  listChatflowTestCases(params.id, caller),
);

/** POST /api/v1/chatflows/{id}/tests: adds a case (201). */
export const POST = route(
  { auth: testChatflows, params: idParams, body: { json: testCaseBodySchema, maxBytes: 2 * 1024 * 1024 } },
  async ({ params, body, caller }) => json(await createChatflowTestCase(params.id, body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
