import { AppError } from "@/common/errors";
import { getEnv } from "../env";
import { safeFileName } from "@/common/files/names";
import { sniffType } from "../files/sniff";
import { createGuardedFetch } from "../security/outbound";
import { operatorPolicy } from "../security/outbound-policy";
import { AUDIO_TYPES, IMAGE_TYPES } from "../security/uploads";
import {
  predictionBodySchema,
  type HistoryItem,
  type PredictionBody,
  type PredictionInput,
  type UploadInput,
  type UploadItem,
} from "@/common/schemas/prediction";

/**
 * The request shapes of POST /api/v1/prediction/{id}, reduced to the one PredictionBody the
 * prediction service takes: JSON (common/schemas/prediction.ts), or a multipart form as Flowise
 * documents it (files in `files`; `question`, `chatId`, `streaming` as text; `overrideConfig`,
 * `history` and `uploads` as JSON strings). History in Flowise's `{role, content}` or the SDK's
 * `{type, message}` becomes `{role, content}`. `url` uploads are fetched later, by
 * fetchUrlUploads, once the caller may run the chatflow.
 */

/** A JSON body, already checked with predictionBodySchema. */
export function fromJsonBody(input: PredictionInput): PredictionBody {
  return { ...input, history: toHistory(input.history) };
}

/** History in either client shape as `{role, content}` (the schema already refused anything else). */
export function toHistory(history: PredictionInput["history"]): HistoryItem[] | undefined {
  return history?.map((m) => ({ role: (m.role ?? m.type)!, content: (m.content ?? m.message)! }));
}

/**
 * A form file (field `files`) as an upload: an image (`file`) or audio (`audio`), by its content;
 * its data a data URL, checked again like any data URL upload by the service.
 */
export function formFileUpload(name: string, bytes: Buffer, maxBytes: number): UploadItem {
  const field = `files (${safeFileName(name || "upload")})`;
  if (bytes.length > maxBytes) {
    throw new AppError(
      "payload_too_large",
      `${field}: ${bytes.length} bytes, larger than ${maxBytes} bytes (UPLOAD_MAX_BYTES).`,
    );
  }
  if (!bytes.length) throw new AppError("validation_failed", `${field}: is empty.`);
  const sniffed = sniffType(bytes, ["image", "audio"]);
  if (!sniffed) {
    throw new AppError(
      "unsupported_media_type",
      `${field}: prediction files accept images (${IMAGE_TYPES.join(", ")}) and audio (${AUDIO_TYPES.join(", ")}).`,
    );
  }
  return {
    type: sniffed.kind === "audio" ? "audio" : "file",
    name: safeFileName(name || `upload.${sniffed.ext}`),
    mime: sniffed.mime,
    data: `data:${sniffed.mime};base64,${bytes.toString("base64")}`,
  };
}

/** Fields Flowise clients send that are not overrides; ignored like unknown top-level JSON fields. */
const IGNORED_FIELDS = new Set(["chatflowId", "leadEmail"]);
const JSON_FIELDS = ["overrideConfig", "history", "uploads"] as const;

/**
 * A multipart form as a PredictionBody. Text fields other than the known ones become overrides (as
 * Flowise reads a form's other fields), under `overrideConfig`'s own keys; form files are added to
 * `uploads` after any sent as JSON.
 */
export function fromMultipartForm(
  form: { files: UploadItem[]; fields: Record<string, string | string[]> },
  /** Parses a JSON-string field with the HTTP layer's JSON checks (depth, NUL), errors naming it. */
  parseJsonField: (text: string, field: string) => unknown,
): PredictionBody {
  const one = (key: string) => {
    const v = form.fields[key];
    return Array.isArray(v) ? v.at(-1) : v;
  };
  const parsed: Record<string, unknown> = {};
  for (const key of JSON_FIELDS) {
    const text = one(key);
    if (text === undefined || text.trim() === "") continue;
    parsed[key] = parseJsonField(text, key);
  }
  const streaming = one("streaming");
  if (streaming !== undefined && streaming !== "true" && streaming !== "false") {
    throw new AppError("validation_failed", 'streaming: must be "true" or "false".');
  }
  const known = new Set<string>(["question", "chatId", "streaming", ...JSON_FIELDS, ...IGNORED_FIELDS]);
  const extra = Object.keys(form.fields).filter((k) => !known.has(k));
  const sentConfig = parsed.overrideConfig;
  if (sentConfig !== undefined && (typeof sentConfig !== "object" || sentConfig === null || Array.isArray(sentConfig)))
    throw new AppError("validation_failed", "overrideConfig: must be a JSON object.");
  const overrideConfig =
    extra.length || sentConfig
      ? { ...Object.fromEntries(extra.map((k) => [k, formOverride(k, one(k))])), ...(sentConfig as object | undefined) }
      : undefined;
  const sentUploads = parsed.uploads;
  if (sentUploads !== undefined && !Array.isArray(sentUploads))
    throw new AppError("validation_failed", "uploads: must be a JSON array.");
  const uploads = [...((sentUploads as unknown[] | undefined) ?? []), ...form.files];
  const candidate = {
    question: one("question"),
    chatId: one("chatId") || undefined,
    streaming: streaming === undefined ? undefined : streaming === "true",
    overrideConfig,
    history: parsed.history,
    uploads: uploads.length ? uploads : undefined,
  };
  const checked = predictionBodySchema.safeParse(candidate);
  if (!checked.success) {
    const details = checked.error.issues.map((i) => ({ field: i.path.join("."), message: i.message }));
    throw new AppError("validation_failed", details.map((d) => `${d.field}: ${d.message}`).join("; "), { details });
  }
  return fromJsonBody(checked.data);
}

/** A form field read as an override: text, except the flag returnSourceDocuments ("true"/"false"). */
function formOverride(key: string, value: string | undefined): unknown {
  if (key === "returnSourceDocuments" && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** Longest wait for a `url` upload, connection to last byte. */
const URL_UPLOAD_TIMEOUT_MS = 15_000;

/**
 * The body with its `url` uploads fetched into data URLs, so they are checked like any other image:
 * only when the flow takes images; through the outbound guard (private and loopback addresses
 * refused unless the operator allowed them); at most UPLOAD_MAX_BYTES, counted as it arrives; the
 * type read from the content. Errors name the upload (`uploads.0: …`): a refused address 403; a URL
 * that answers 4xx, does not resolve or where nothing listens 422 (the caller's URL is wrong); too
 * large 413; not an image 415; the remote server answering 5xx 502/503, too slow 504, naming its host.
 */
export async function fetchUrlUploads(
  body: PredictionBody,
  opts: { allowsImages: boolean; signal?: AbortSignal },
): Promise<PredictionBody & { uploads?: UploadItem[] }> {
  const uploads = body.uploads;
  if (!uploads?.some((u) => u.type === "url")) return body as PredictionBody & { uploads?: UploadItem[] };
  const maxFiles = getEnv().UPLOAD_MAX_FILES;
  if (uploads.length > maxFiles)
    throw new AppError("validation_failed", `uploads: at most ${maxFiles} files per request.`);
  const resolved = await Promise.all(
    uploads.map((u, i) => (u.type === "url" ? fetchUrlUpload(u, `uploads.${i}`, opts) : u)),
  );
  return { ...body, uploads: resolved };
}

async function fetchUrlUpload(
  upload: Extract<UploadInput, { type: "url" }>,
  field: string,
  opts: { allowsImages: boolean; signal?: AbortSignal },
): Promise<UploadItem> {
  if (!opts.allowsImages) {
    throw new AppError(
      "bad_request",
      `${field}: image uploads are not enabled in this chatflow (turn on "Allow image uploads" on its chat model).`,
    );
  }
  const maxBytes = getEnv().UPLOAD_MAX_BYTES;
  const url = new URL(upload.data);
  const guarded = createGuardedFetch({
    ...operatorPolicy(),
    requester: field,
    timeoutMs: URL_UPLOAD_TIMEOUT_MS,
    streamResponse: true,
    // The guard's own cap is a backstop: the count below stops first and answers 413.
    maxResponseBytes: maxBytes + 1024 * 1024,
  });
  const res = await guarded(url, { headers: { accept: IMAGE_TYPES.join(", ") }, signal: opts.signal }).catch(
    (err: unknown) => {
      // Nothing answers at that address, or the name does not resolve: the URL is the caller's mistake.
      if (
        err instanceof AppError &&
        (err.code === "upstream_unavailable" || /could not resolve|has no address/.test(err.message))
      )
        throw new AppError("unprocessable", `${err.message}; send a URL that serves the image.`, { cause: err });
      throw err;
    },
  );
  const bytes = await readUpTo(res, maxBytes, field, url);
  const sniffed = sniffType(bytes, ["image"]);
  if (!sniffed) {
    throw new AppError(
      "unsupported_media_type",
      `${field}: the content at ${url.host}${url.pathname} is not an image (${IMAGE_TYPES.join(", ")}).`,
    );
  }
  const lastSegment = decodeURIComponent(url.pathname.split("/").at(-1) ?? "");
  return {
    type: "file",
    name: safeFileName(upload.name ?? (lastSegment || `upload.${sniffed.ext}`)),
    mime: sniffed.mime,
    data: `data:${sniffed.mime};base64,${bytes.toString("base64")}`,
  };
}

/** The body of a 2xx answer, refused past maxBytes while it streams; 4xx/5xx answers become errors. */
async function readUpTo(res: Response, maxBytes: number, field: string, url: URL): Promise<Buffer> {
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 400 && res.status < 500) {
      throw new AppError(
        "unprocessable",
        `${field}: ${url.host}${url.pathname} answered HTTP ${res.status}; send a URL that serves the image.`,
      );
    }
    throw new AppError(
      res.status === 503 ? "upstream_unavailable" : "upstream_error",
      `${field}: the server at ${url.host} failed (HTTP ${res.status}).`,
    );
  }
  const tooLarge = (size: number | string) =>
    new AppError(
      "payload_too_large",
      `${field}: the file at ${url.host} is ${size} bytes, larger than ${maxBytes} bytes (UPLOAD_MAX_BYTES).`,
    );
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(declared);
  }
  if (!res.body) return Buffer.alloc(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(`more than ${maxBytes}`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
