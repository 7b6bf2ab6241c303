import path from "node:path";
import { AppError } from "@/common/errors";
import { chatflowUploadsDir, storeContentAddressed } from "../security/stored-files";
import { safeFileName } from "@/common/files/names";
import { detectFileType, FILE_TYPES, describeTypes } from "../vector/file-types";
import type { UpsertFile } from "../vector/types";

/**
 * Files of the upsert API (its route reads the multipart body, capped and counted, and hands each
 * file to checkUpsertFile): each is sized, its type comes from its content (magic bytes for
 * PDF/DOCX, valid UTF-8 for text formats) and must agree with its name, and they are stored under
 * their content hash.
 */

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
}

const ALL_TYPES = Object.values(FILE_TYPES).map((t) => t.mime);

/** Checks one uploaded file: size, emptiness, and that its content is the type its name says. */
export function checkUpsertFile(name: string, bytes: Buffer, limits: UploadLimits): UpsertFile {
  const display = safeFileName(name);
  if (bytes.length > limits.maxFileBytes) {
    throw new AppError(
      "payload_too_large",
      `${display}: ${bytes.length} bytes, larger than ${limits.maxFileBytes} bytes (UPSERT_MAX_FILE_BYTES).`,
    );
  }
  if (bytes.length === 0) throw new AppError("validation_failed", `${display}: the file is empty.`);
  const detected = detectFileType(display, bytes);
  if ("problem" in detected) {
    throw new AppError(
      "unsupported_media_type",
      `${display}: ${detected.problem}. Accepted types: ${describeTypes(ALL_TYPES)}.`,
    );
  }
  return { name: display, mime: detected.type.mime, ext: detected.type.exts[0].slice(1), bytes };
}

/**
 * Keeps upserted files under `<dataDir>/uploads/<chatflowId>/documents/<sha256>.<ext>` (the same
 * file upserted 50 times is stored once); returns relative paths.
 */
export async function storeUpsertFiles(dataDir: string, chatflowId: string, files: UpsertFile[]): Promise<string[]> {
  const dir = path.join(chatflowUploadsDir(chatflowId), "documents");
  return Promise.all(files.map((f) => storeContentAddressed(dataDir, dir, f.bytes, f.ext)));
}
