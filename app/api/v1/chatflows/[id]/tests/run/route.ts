import { idParams, route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { testChatflows } from "@/common/access/permissions";
import { startTestRunBodySchema, startTestRunResponseSchema } from "@/common/schemas/chatflow-tests";
import { startTestRun } from "@/lib/services/chatflow-tests/runs";
import { refuseOtherMethods } from "@/lib/http/methods";

/** POST /api/v1/chatflows/{id}/tests/run: runs every case against a version (default the draft) in the background; 202 with the run id. */
export const POST = route(
  {
    auth: testChatflows,
    params: idParams,
    body: { json: startTestRunBodySchema, maxBytes: 4096 },
    idempotency: {},
    docs: {
      tag: "Chatflow tests",
      summary: "Run every test case against a version",
      description:
        "`version` defaults to the draft (the latest). Runs in the background, each case in a session of its own that is never stored as a conversation; poll the run for results.",
      responses: { 202: { description: "The run was queued", schema: startTestRunResponseSchema } },
      errors: [503],
    },
  },
  async ({ params, body, caller }) => json(await startTestRun(params.id, body, caller), 202),
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
