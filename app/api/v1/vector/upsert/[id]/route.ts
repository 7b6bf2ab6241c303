import { getEnv } from "@/lib/env";
import { upsertChatflow } from "@/lib/http/policies";
import { idParams, readJson, route } from "@/lib/http/route";
import { upsertVectors } from "@/lib/services/upsert";
import { readMultipartUpsert } from "@/lib/services/upsert-files";
import { fromJsonBody, fromMultipartFields } from "@/lib/services/upsert-request";
import { refuseOtherMethods } from "@/lib/http/methods";

/** API keys with `upsert` (scoped to the chatflow) and studio users (their own chatflows; admins any). */
const auth = upsertChatflow;

export const POST = route({ auth, params: idParams }, async ({ req, params, caller }) => {
  const type = req.headers.get("content-type") ?? "";
  if (/^multipart\/form-data/i.test(type)) {
    const env = getEnv();
    const { files, fields } = await readMultipartUpsert(req, { maxFileBytes: env.UPSERT_MAX_FILE_BYTES, maxFiles: env.UPSERT_MAX_FILES });
    return upsertVectors({ chatflowId: params.id, caller, files, ...fromMultipartFields(fields) });
  }
  const input = fromJsonBody(await readJson(req));
  return upsertVectors({ chatflowId: params.id, caller, files: [], ...input });
});

export const { GET, HEAD, PUT, PATCH, DELETE } = refuseOtherMethods("POST");
