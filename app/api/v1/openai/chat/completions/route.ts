import { route } from "@/lib/http/route";
import { refuseOtherMethods } from "@/lib/http/methods";
import { streamedAnswerRefusal } from "@/lib/http/idempotency";
import {
  chatCompletionResponse,
  chatCompletionStream,
  withOpenAIErrors,
  openAIErrorDocs,
  compatRequest,
} from "@/lib/http/openai";
import { openAICallers } from "@/common/access/permissions";
import { chatCompletionRequestSchema, chatCompletionSchema } from "@/common/schemas/openai";
import { startChatCompletion } from "@/lib/services/openai-compat";

const STREAM_REFUSAL = streamedAnswerRefusal("stream: true", "stream: false");

export const POST = withOpenAIErrors(
  route(
    {
      auth: openAICallers,
      body: { json: chatCompletionRequestSchema },
      // A stream cannot be given back as it went: a key with `stream: true` is refused (docs/api.md).
      idempotency: { refuse: (sent) => (sent.stream ? STREAM_REFUSAL : undefined) },
      docs: {
        tag: "Prediction",
        summary: "Run a flow as an OpenAI chat completion",
        description:
          "OpenAI's `POST /chat/completions`: `model` is a flow's id or name; the last message (the user's) is the question. A session named by `user` or the `X-Session-Id` header is remembered by the flow's memory (send only the new message); without one each call is a fresh session whose history is the earlier user and assistant messages. System messages are not passed on (the flow has its own). `stream: true` answers OpenAI's chunks and `data: [DONE]`; `stream_options.include_usage` adds a usage chunk. Usage is the flow's models' own token counts where they report them, else an estimate (4 characters a token). Errors take OpenAI's shape. The session is in `X-Session-Id` and `session_id`.",
        callersNote: "keys with `predict`: their owner's flows, in scope",
        responses: {
          200: {
            description: "The answer (or, streamed, chat.completion.chunk events)",
            schema: chatCompletionSchema,
            headers: { "X-Session-Id": "The flow's session: send it back to continue it" },
            events: chatCompletionSchema,
          },
        },
        errors: [422, 502, 503, 504],
        errorBodies: openAIErrorDocs([400, 401, 403, 404, 408, 413, 415, 422, 429, 500, 502, 503, 504]),
        rateLimited: true,
      },
    },
    async ({ req, body, caller, requestId }) => {
      const compat = await startChatCompletion(body, compatRequest(req, caller, requestId));
      if (!body.stream) return chatCompletionResponse(compat, req.signal);
      return chatCompletionStream(compat, !!body.stream_options?.include_usage, req.signal);
    },
  ),
);

export const { GET, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
