import { idParams, route } from "@/lib/http/route";
import { deleteExecutionsPolicy, readExecutionsPolicy } from "@/common/access/permissions";
import { executionDetailSchema, executionsDeletedSchema } from "@/common/schemas/execution";
import { deleteExecutionsFor, getExecutionOrThrow } from "@/lib/services/executions";
import { refuseOtherMethods } from "@/lib/http/methods";

export const GET = route(
  {
    auth: readExecutionsPolicy,
    params: idParams,
    docs: {
      tag: "Executions",
      summary: "Read an agentflow run node by node",
      description:
        "Each node's input, output, flow state after it and state change, tool calls, time, error and model usage (tokens, estimated or reported, and cost), Flowise's executed data; the run's status, flow state, the action a paused run waits for, and its total usage and cost as its answers recorded them.",
      callersNote: "builders and their keys: runs of their own flows only",
      responses: { 200: { description: "The run", schema: executionDetailSchema } },
    },
  },
  async ({ params, caller }) => getExecutionOrThrow(params.id, caller),
);

export const DELETE = route(
  {
    auth: deleteExecutionsPolicy,
    params: idParams,
    docs: {
      tag: "Executions",
      summary: "Delete an agentflow run",
      description: "Its node data goes with it; a run still running is 409. Flowise's answer.",
      callersNote: "builders and their keys: runs of their own flows only",
      responses: { 200: { description: "Deleted", schema: executionsDeletedSchema } },
      errors: [409],
    },
  },
  async ({ params, caller }) => deleteExecutionsFor([params.id], caller),
);

export const { POST, PUT, PATCH } = refuseOtherMethods("GET", "DELETE");
