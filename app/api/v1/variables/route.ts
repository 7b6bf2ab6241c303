import { pageOfQuery, pageParams } from "@/common/schemas/pagination";
import { PAGE_HEADER_DOCS, pagedArray } from "@/lib/http/pagination";
import { z } from "zod";
import { route } from "@/lib/http/route";
import { listVariablesPolicy, manageVariables } from "@/common/access/permissions";
import { createVariableSchema, variableListResponseSchema, variableResponseSchema } from "@/common/schemas/variable";
import { createVariable, listVariables } from "@/lib/services/variables";
import { refuseOtherMethods } from "@/lib/http/methods";
import { json } from "@/lib/http/responses";

export const GET = route(
  {
    auth: listVariablesPolicy,
    query: z.object(pageParams("variables")),
    docs: {
      tag: "Variables",
      summary: "List global variables",
      description:
        "Every global variable by name (Flowise's Variables). A runtime variable's value is the server's environment variable of its name and is never sent.",
      responses: {
        200: { description: "The variables", schema: variableListResponseSchema, headers: PAGE_HEADER_DOCS },
      },
    },
  },
  async ({ req, query }) => pagedArray(req, await listVariables(pageOfQuery(query))),
);

export const POST = route(
  {
    auth: manageVariables,
    body: { json: createVariableSchema },
    idempotency: {},
    docs: {
      tag: "Variables",
      summary: "Create a global variable",
      description:
        "A `static` variable holds `value`; a `runtime` one reads the environment variable of its name, which the operator must list in VARIABLES_FROM_ENV (else 400). A name in use is 409.",
      responses: { 201: { description: "The variable", schema: variableResponseSchema } },
      errors: [409],
    },
  },
  async ({ body }) => json(await createVariable(body), 201),
);

export const { PUT, PATCH, DELETE } = refuseOtherMethods("GET", "POST");
