import { AppError } from "@/common/errors";
import { parseBase64DataUrl } from "@/common/files/data-url";
import { safeFileName } from "@/common/files/names";
import { sniffType } from "../files/sniff";
import { chatflowUploadsDir, storeContentAddressed } from "./stored-files";

/** Media types that share a container with another (e.g. WebM video carrying only audio). */
const ALIASES: Record<string, string> = {
  "audio/x-wav": "audio/wav",
  "audio/wave": "audio/wav",
  "audio/mp3": "audio/mpeg",
  "video/webm": "audio/webm",
  "audio/x-m4a": "audio/mp4",
  "image/jpg": "image/jpeg",
};

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
export const AUDIO_TYPES = ["audio/webm", "audio/mp4", "audio/ogg", "audio/wav", "audio/mpeg"];

export interface CheckedUpload {
  kind: "image" | "audio";
  mime: string;
  ext: string;
  name: string;
  bytes: Buffer;
}

/** Media type without parameters (`audio/webm;codecs=opus` → `audio/webm`), normalised. */
export function baseMime(mime: string): string {
  const base = mime.split(";")[0].trim().toLowerCase();
  return ALIASES[base] ?? base;
}

/**
 * The exact number of bytes a base64 text decodes to (every 4 characters are 3 bytes, minus one
 * per `=` of padding; unpadded text ends in 2 or 3 characters for 1 or 2 bytes), or undefined
 * when its length cannot be base64. Checked before decoding, so an oversized upload is never
 * decoded.
 */
export function decodedBase64Size(base64: string): number | undefined {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  if (padding && base64.length % 4 !== 0) return undefined;
  if (base64.length % 4 === 1) return undefined;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/**
 * Decodes a `data:<mime>[;params];base64,<data>` URL and checks it: strict base64, size cap,
 * declared type in the allowed list, and the content's magic bytes matching the declared type.
 */
export function checkDataUrlUpload(
  input: { data: string; mime?: string; name?: string },
  opts: { kind: "image" | "audio"; maxBytes: number; field: string },
): CheckedUpload {
  const url = parseBase64DataUrl(input.data, "strict");
  if (!url)
    throw new AppError("validation_failed", `${opts.field}.data: must be a base64 data URL (data:<type>;base64,…).`);
  const declared = baseMime(input.mime ?? url.type);
  if (input.mime && baseMime(input.mime) !== baseMime(url.type)) {
    throw new AppError(
      "validation_failed",
      `${opts.field}.mime: '${input.mime}' does not match the data URL's type '${[url.type, ...url.params].join(";")}'.`,
    );
  }
  const allowed = opts.kind === "image" ? IMAGE_TYPES : AUDIO_TYPES;
  if (!allowed.includes(declared)) {
    throw new AppError(
      "unsupported_media_type",
      `${opts.field}: ${opts.kind} uploads accept ${allowed.join(", ")}; got ${declared}.`,
    );
  }
  const size = decodedBase64Size(url.data);
  if (size === undefined) throw new AppError("validation_failed", `${opts.field}.data: is not valid base64.`);
  if (size > opts.maxBytes) {
    throw new AppError(
      "payload_too_large",
      `${opts.field}: ${size} bytes, larger than ${opts.maxBytes} bytes (UPLOAD_MAX_BYTES).`,
    );
  }
  const bytes = Buffer.from(url.data, "base64");
  if (!bytes.length) throw new AppError("validation_failed", `${opts.field}.data: is empty.`);
  const sniffed = sniffType(bytes, ["image", "audio"]);
  if (!sniffed || sniffed.mime !== declared) {
    throw new AppError(
      "unsupported_media_type",
      `${opts.field}: the content is not ${declared}${sniffed ? ` (it looks like ${sniffed.mime})` : ""}.`,
    );
  }
  return {
    kind: opts.kind,
    mime: declared,
    ext: sniffed.ext,
    name: safeFileName(input.name ?? `upload.${sniffed.ext}`),
    bytes,
  };
}

/**
 * Stores an upload inside `<dataDir>/uploads/<chatflowId>/`, named by its content's SHA-256 (the
 * same image sent 50 times is one file); returns its relative path.
 */
export async function storeUpload(dataDir: string, chatflowId: string, upload: CheckedUpload): Promise<string> {
  return storeContentAddressed(dataDir, chatflowUploadsDir(chatflowId), upload.bytes, upload.ext);
}
