import { route } from "@/lib/http/route";
import { refuseOtherMethods } from "@/lib/http/methods";
import { withOpenAIErrors, openAIErrorDocs } from "@/lib/http/openai";
import { openAICallers } from "@/common/access/permissions";
import { modelListSchema } from "@/common/schemas/openai";
import { listModels } from "@/lib/services/openai-compat";

export const GET = withOpenAIErrors(
  route(
    {
      auth: openAICallers,
      docs: {
        tag: "Prediction",
        summary: "List flows as OpenAI models",
        description:
          "OpenAI's `GET /models`: the flows the caller may run through the OpenAI-compatible API (its own; admins: every flow; a scoped key: its chatflows), id = the flow's id, with its name. Point an OpenAI client's base URL at `/api/v1/openai`.",
        callersNote: "keys with `predict`: their owner's flows, in scope",
        responses: { 200: { description: "The flows as models", schema: modelListSchema } },
        errorBodies: openAIErrorDocs([401, 403, 429, 500, 503]),
      },
    },
    async ({ caller }) => listModels(caller),
  ),
);

export const { POST, PUT, PATCH, DELETE } = refuseOtherMethods("GET");
