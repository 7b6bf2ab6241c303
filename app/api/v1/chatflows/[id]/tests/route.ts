import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { idParams, route } from "@/lib/http/route";
import { json } from "@/lib/http/responses";
import { testChatflows } from "@/common/access/permissions";
import { testCaseBodySchema, testCaseSchema } from "@/common/schemas/chatflow-tests";
import { createChatflowTestCase, listChatflowTestCases } from "@/lib/services/chatflow-tests/cases";
import { refuseOtherMethods } from "@/lib/http/methods";
import { z } from "zod";

/** GET /api/v1/chatflows/{id}/tests: the chatflow's test cases, oldest first. */
export const GET = route(
  {
    auth: testChatflows,
    params: idParams,
    query: z.object(pageParams("chatflow-tests")),
    docs: {
      tag: "Chatflow tests",
      summary: "The chatflow's test cases",
      description: "Every case with its question and expectations, oldest first.",
      responses: {
        200: { description: "Cases, oldest first", schema: z.array(testCaseSchema), headers: PAGE_HEADER_DOCS },
      },
    },
  },
  async ({ req, params, caller, query }) =>
    pagedArray(req, await listChatflowTestCases(params.id, caller, pageOfQuery(query))),
);

/** POST /api/v1/chatflows/{id}/tests: adds a case (201). */
export const POST = route(
  {
    auth: testChatflows,
    params: idParams,
    body: { json: testCaseBodySchema, maxBytes: 2 * 1024 * 1024 },
    idempotency: {},
    docs: {
      tag: "Chatflow tests",
      summary: "Add a test case",
      description:
        "A question (optional history, overrideConfig, uploads) and expectations: `status`, `answerContains`, `answerNotContains`, `answerMatches` (a regular expression of at most 500 characters, flags `imsu`; a bad one is a 400), `answerJsonSchema`, `toolCalled` (with `input` fields), `toolNotCalled`, `sourceContains`, `latencyBelow` (reported; fails the case only with `gating: true`). At most 200 cases per chatflow (409 past it).",
      responses: { 201: { description: "The case", schema: testCaseSchema } },
      errors: [409],
    },
  },
  async ({ params, body, caller }) => json(await createChatflowTestCase(params.id, body, caller), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
