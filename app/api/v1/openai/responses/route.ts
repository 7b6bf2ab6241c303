import { route } from "@/lib/http/route";
import { refuseOtherMethods } from "@/lib/http/methods";
import { streamedAnswerRefusal } from "@/lib/http/idempotency";
import { responseJson, responseStream, withOpenAIErrors, openAIErrorDocs, compatRequest } from "@/lib/http/openai";
import { openAICallers } from "@/common/access/permissions";
import { responseRequestSchema } from "@/common/schemas/openai";
import { startResponse } from "@/lib/services/openai-compat";
import { z } from "zod";

/** The parts of a Responses API answer clients read (the rest is OpenAI's shape, documented there). */
const responseSchema = z.looseObject({
  id: z.string(),
  object: z.literal("response"),
  status: z.string(),
  model: z.string(),
  output_text: z.string(),
  output: z.array(z.looseObject({ type: z.string() })),
  usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number() }),
  session_id: z.string(),
  chat_id: z.string(),
});

const STREAM_REFUSAL = streamedAnswerRefusal("stream: true", "stream: false");

export const POST = withOpenAIErrors(
  route(
    {
      auth: openAICallers,
      body: { json: responseRequestSchema },
      // A stream cannot be given back as it went: a key with `stream: true` is refused (docs/api.md).
      idempotency: { refuse: (sent) => (sent.stream ? STREAM_REFUSAL : undefined) },
      docs: {
        tag: "Prediction",
        summary: "Run a flow through OpenAI's Responses API",
        description:
          "OpenAI's `POST /responses`: `input` is text or message items (the last one the user's); sessions, usage and errors as for chat completions. `stream: true` answers the Responses API's events (`response.created`, `response.output_text.delta`…, `response.completed`; `response.failed` on a failure).",
        callersNote: "keys with `predict`: their owner's flows, in scope",
        responses: {
          200: {
            description: "The answer (or, streamed, response.* events)",
            schema: responseSchema,
            headers: { "X-Session-Id": "The flow's session: send it back to continue it" },
            events: z.looseObject({ type: z.string(), sequence_number: z.number() }),
          },
        },
        errors: [422, 502, 503, 504],
        errorBodies: openAIErrorDocs([400, 401, 403, 404, 408, 413, 415, 422, 429, 500, 502, 503, 504]),
        rateLimited: true,
      },
    },
    async ({ req, body, caller, requestId }) => {
      const compat = await startResponse(body, compatRequest(req, caller, requestId));
      return body.stream ? responseStream(compat, req.signal) : responseJson(compat, req.signal);
    },
  ),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
