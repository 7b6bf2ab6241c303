import { idParams, route } from "@/lib/http/route";
import { manageVariables } from "@/common/access/permissions";
import { updateVariableSchema, variableResponseSchema } from "@/common/schemas/variable";
import { deleteVariable, updateVariable } from "@/lib/services/variables";
import { refuseOtherMethods } from "@/lib/http/methods";
import { deletedResponseSchema } from "@/common/schemas/responses";

export const PUT = route(
  {
    auth: manageVariables,
    params: idParams,
    body: { json: updateVariableSchema },
    docs: {
      tag: "Variables",
      summary: "Rename or change a global variable",
      description: "Any subset of name, value and type; the same rules as creating one.",
      responses: { 200: { description: "The variable", schema: variableResponseSchema } },
      errors: [409],
    },
  },
  async ({ params, body }) => updateVariable(params.id, body),
);

export const DELETE = route(
  {
    auth: manageVariables,
    params: idParams,
    docs: {
      tag: "Variables",
      summary: "Delete a global variable",
      description: "Agentflows naming it report the problem when checked; a run reads it as empty.",
      responses: { 200: { description: "Deleted", schema: deletedResponseSchema } },
    },
  },
  async ({ params }) => deleteVariable(params.id),
);

export const { GET, HEAD, POST, PATCH } = refuseOtherMethods("PUT", "DELETE");
