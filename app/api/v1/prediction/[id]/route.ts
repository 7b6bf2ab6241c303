import { idParams, route } from "@/lib/http/route";
import { foreignOrigin } from "@/lib/http/same-origin";
import { readJsonField, type JsonOrForm, type MultipartSpec } from "@/lib/http/body";
import { preflight, withCors, type OriginResolver } from "@/lib/http/cors";
import { clientIp } from "@/lib/access/client-ip";
import { rateLimitHeaders } from "@/lib/access/rate-limit";
import { CHATFLOW_VERSION_HEADER, predictionStreamResponse } from "@/lib/http/prediction-stream";
import { json } from "@/lib/http/responses";
import { streamedAnswerRefusal } from "@/lib/http/idempotency";
import { getEnv } from "@/lib/env";
import { runChatflow } from "@/common/access/permissions";
import {
  PREDICTION_BODY_RULES,
  predictionBodySchema,
  predictionQuerySchema,
  type PredictionInput,
  type UploadItem,
} from "@/common/schemas/prediction";
import { startPrediction } from "@/lib/services/predictions";
import { formFileUpload, fromJsonBody, fromMultipartForm } from "@/lib/services/prediction-input";
import { corsOriginsForChatflow } from "@/lib/services/public-chatbot";
import { refuseOtherMethods } from "@/lib/http/methods";
import { predictionFormSchema } from "@/common/schemas/multipart-forms";
import { predictionEventSchema, predictionResponseSchema } from "@/common/schemas/prediction-stream";

/** API keys with `predict`, studio users (stored as INTERNAL chats), or anyone on a public chatflow. */
const auth = runChatflow;
// Base64 uploads inflate by 4/3; leave room for the rest of the body.
const maxBodyBytes = () => Math.ceil(getEnv().UPLOAD_MAX_BYTES * getEnv().UPLOAD_MAX_FILES * 1.4) + 1024 * 1024;

/** Flowise's multipart form: files (images, audio) in `files`, each at most UPLOAD_MAX_BYTES (read per request). */
function predictionForm(): MultipartSpec<UploadItem> {
  const env = getEnv();
  return {
    maxBytes: env.UPLOAD_MAX_BYTES * env.UPLOAD_MAX_FILES + 1024 * 1024,
    fileField: "files",
    maxFiles: env.UPLOAD_MAX_FILES,
    what: "prediction",
    file: (name, bytes) => formFileUpload(name, bytes, env.UPLOAD_MAX_BYTES),
  };
}

/** The body, documented with this server's UPLOAD_MAX_FILES as the most uploads (the schema's 20 caps the setting). */
const predictionBody = predictionBodySchema.meta({
  override: ({ jsonSchema }) => {
    Object.assign(jsonSchema, PREDICTION_BODY_RULES);
    const uploads = (jsonSchema.properties as Record<string, { maxItems?: number }> | undefined)?.uploads;
    if (uploads) uploads.maxItems = getEnv().UPLOAD_MAX_FILES;
  },
});

/** Browsers get CORS headers only from a public chatflow's allowed origins. */
const corsOrigins: OriginResolver = (params) => corsOriginsForChatflow(String(params.id ?? ""));

const predictionInput = (sent: JsonOrForm<PredictionInput, UploadItem>) =>
  sent.form ? fromMultipartForm(sent.form, readJsonField) : fromJsonBody(sent.json);

const STREAMING_REFUSAL = streamedAnswerRefusal("streaming: true", "streaming: false");

export const OPTIONS = preflight(corsOrigins, ["POST"]);

export const POST = withCors(
  route(
    {
      auth,
      params: idParams,
      query: predictionQuerySchema,
      body: { json: predictionBody, maxBytes: maxBodyBytes(), multipart: predictionForm },
      // A stream cannot be given back as it was: a key with `streaming: true` is refused (docs/api.md).
      idempotency: { refuse: (sent) => (predictionInput(sent).streaming ? STREAMING_REFUSAL : undefined) },
      docs: {
        tag: "Prediction",
        summary: "Run a chatflow",
        description:
          "Flowise's prediction body. With `streaming: true` the answer is Server-Sent Events (`start`, `token`…, `usedTools`, `sourceDocuments`, `metadata`, `error`, `end`). A flow that is not valid answers 422 `invalid_graph` with the problems in `error.details`. Runs the chatflow's published version (never published: the latest); `?version=N` or `?version=draft` pins one (the chatflow's managers only: a studio session, admin Basic, a key with `chatflows`; else 403). The answering version is in `X-Chatflow-Version` and `chatflowVersion`.",
        callersNote: "keys in scope; anyone: public chatflows only; `?version=`: managers only",
        form: predictionFormSchema,
        responses: {
          200: {
            description: "The answer",
            schema: predictionResponseSchema,
            headers: { "X-Chatflow-Version": "The chatflow version that answered" },
            events: predictionEventSchema,
          },
        },
        errors: [422, 502, 503, 504],
        rateLimited: true,
      },
    },
    async ({ req, params, query, body: sent, caller, requestId }) => {
      const body = predictionInput(sent);
      const prepared = await startPrediction(
        {
          chatflowId: params.id,
          body,
          caller,
          origin: foreignOrigin(req),
          clientIp: clientIp(req),
          requestId,
          ...(query.version !== undefined ? { version: query.version } : {}),
        },
        caller.kind === "user" ? "INTERNAL" : "EXTERNAL",
      );
      if (!body.streaming)
        return json(await prepared.execute({ signal: req.signal }), 200, {
          [CHATFLOW_VERSION_HEADER]: String(prepared.version),
          ...rateLimitHeaders(prepared.rateLimit),
        });
      return predictionStreamResponse(prepared, req.signal);
    },
  ),
  corsOrigins,
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
