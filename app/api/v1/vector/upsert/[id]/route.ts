import { getEnv } from "@/lib/env";
import { upsertChatflow } from "@/common/access/permissions";
import type { MultipartSpec } from "@/lib/http/body";
import { idParams, route } from "@/lib/http/route";
import { upsertJsonBodySchema } from "@/common/schemas/upsert";
import { predictionQuerySchema } from "@/common/schemas/prediction";
import { startUpsert } from "@/lib/services/upsert";
import { checkUpsertFile } from "@/lib/services/upsert-files";
import { fromJsonBody, fromMultipartFields } from "@/lib/services/upsert-request";
import type { UpsertFile } from "@/lib/vector/types";
import { refuseOtherMethods } from "@/lib/http/methods";
import { upsertResponseSchema } from "@/common/schemas/responses";
import { upsertFormSchema } from "@/common/schemas/multipart-forms";

/** API keys with `upsert` (scoped to the chatflow) and studio users (their own chatflows; admins any). */
const auth = upsertChatflow;

/** The multipart form: files in `files`, capped by UPSERT_MAX_FILE_BYTES and UPSERT_MAX_FILES (read per request). */
function upsertForm(): MultipartSpec<UpsertFile> {
  const env = getEnv();
  const limits = { maxFileBytes: env.UPSERT_MAX_FILE_BYTES, maxFiles: env.UPSERT_MAX_FILES };
  return {
    maxBytes: limits.maxFileBytes * limits.maxFiles + 1024 * 1024,
    fileField: "files",
    maxFiles: limits.maxFiles,
    what: "upsert",
    file: (name, bytes) => checkUpsertFile(name, bytes, limits),
  };
}

export const POST = route(
  {
    auth,
    params: idParams,
    query: predictionQuerySchema,
    body: { json: upsertJsonBodySchema, multipart: upsertForm },
    idempotency: {},
    docs: {
      tag: "Vector stores",
      summary: "Load documents into a chatflow's stores",
      description:
        "Loads into the stores of the published version (never published: the latest); `?version=N` or `draft` picks another (the chatflow's managers with `chatflows`, or a studio session).",
      callersNote: "keys in scope",
      form: upsertFormSchema,
      responses: {
        200: { description: "What each store added, updated, skipped, deleted", schema: upsertResponseSchema },
      },
      errors: [422, 502, 503, 504],
    },
  },
  async ({ params, query, body, caller, req, requestId }) => {
    const chatflowId = params.id;
    // `?version=N|draft` (managers only): the version whose stores are loaded; else the published one.
    const version = query.version !== undefined ? { version: query.version } : {};
    // The request's signal: in queue mode a client that goes away cancels the job and its staged files.
    const signal = req.signal;
    if (body.form)
      return startUpsert({
        chatflowId,
        caller,
        requestId,
        files: body.form.files,
        ...fromMultipartFields(body.form.fields),
        ...version,
        signal,
      });
    return startUpsert({ chatflowId, caller, requestId, files: [], ...fromJsonBody(body.json), ...version, signal });
  },
);

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
