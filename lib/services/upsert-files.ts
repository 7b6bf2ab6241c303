import path from "node:path";
import { AppError } from "../errors";
import { readBodyCapped } from "../http/route";
import { chatflowUploadsDir, storeContentAddressed } from "../security/stored-files";
import { safeFileName } from "../files/names";
import { detectFileType, FILE_TYPES, describeTypes } from "../vector/file-types";
import type { UpsertFile } from "../vector/types";

/**
 * Multipart input of the upsert API: the body is read with a size cap before it is parsed, files
 * are counted and sized, their type comes from their content (magic bytes for PDF/DOCX, valid
 * UTF-8 for text formats) and must agree with their name, and they are stored under their content hash.
 */

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
}

export interface MultipartUpsert {
  files: UpsertFile[];
  /** Text fields other than files, as sent (one value, or several when repeated). */
  fields: Record<string, string | string[]>;
}

const ALL_TYPES = Object.values(FILE_TYPES).map((t) => t.mime);

/** Checks one uploaded file: size, emptiness, and that its content is the type its name says. */
export function checkUpsertFile(name: string, bytes: Buffer, limits: UploadLimits): UpsertFile {
  const display = safeFileName(name);
  if (bytes.length > limits.maxFileBytes) {
    throw new AppError("payload_too_large", `${display}: ${bytes.length} bytes, larger than ${limits.maxFileBytes} bytes (UPSERT_MAX_FILE_BYTES).`);
  }
  if (bytes.length === 0) throw new AppError("validation_failed", `${display}: the file is empty.`);
  const detected = detectFileType(display, bytes);
  if ("problem" in detected) {
    throw new AppError("unsupported_media_type", `${display}: ${detected.problem}. Accepted types: ${describeTypes(ALL_TYPES)}.`);
  }
  return { name: display, mime: detected.type.mime, ext: detected.type.exts[0].slice(1), bytes };
}

/** Parses a multipart/form-data upsert: `files` (one or many) and text fields. */
export async function readMultipartUpsert(req: Request, limits: UploadLimits): Promise<MultipartUpsert> {
  const maxBody = limits.maxFileBytes * limits.maxFiles + 1024 * 1024;
  const bytes = await readBodyCapped(req, maxBody, "The upload");
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": req.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw new AppError("bad_request", "The body is not valid multipart/form-data.");
  }
  const files: UpsertFile[] = [];
  const fields: Record<string, string | string[]> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") {
      if (key !== "files") throw new AppError("validation_failed", `Send files in the form field "files" (got a file in "${key}").`);
      if (files.length >= limits.maxFiles) throw new AppError("payload_too_large", `At most ${limits.maxFiles} files per upsert.`);
      files.push(checkUpsertFile(value.name, Buffer.from(await value.arrayBuffer()), limits));
      continue;
    }
    // PostgreSQL cannot store NUL in text: refuse it here, before any embedding call.
    if (key.includes("\u0000") || value.includes("\u0000")) {
      throw new AppError("bad_request", `Form field "${key.replace(/\u0000/g, "")}": must not contain a NUL character.`);
    }
    const prev = fields[key];
    fields[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return { files, fields };
}

/**
 * Keeps upserted files under `<dataDir>/uploads/<chatflowId>/documents/<sha256>.<ext>` (the same
 * file upserted 50 times is stored once); returns relative paths.
 */
export async function storeUpsertFiles(dataDir: string, chatflowId: string, files: UpsertFile[]): Promise<string[]> {
  const dir = path.join(chatflowUploadsDir(chatflowId), "documents");
  return Promise.all(files.map((f) => storeContentAddressed(dataDir, dir, f.bytes, f.ext)));
}
