import path from "node:path";
import { AppError } from "../errors";
import { chatflowUploadsDir, storeContentAddressed } from "./stored-files";

/** What the content's first bytes say it is. */
const SIGNATURES: { mime: string; ext: string; test: (b: Buffer) => boolean }[] = [
  { mime: "image/png", ext: "png", test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: "image/jpeg", ext: "jpg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: "image/gif", ext: "gif", test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString("latin1")) },
  { mime: "image/webp", ext: "webp", test: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP" },
  { mime: "audio/webm", ext: "webm", test: (b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])) },
  { mime: "audio/ogg", ext: "ogg", test: (b) => b.subarray(0, 4).toString("latin1") === "OggS" },
  { mime: "audio/wav", ext: "wav", test: (b) => b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WAVE" },
  { mime: "audio/mp4", ext: "m4a", test: (b) => b.subarray(4, 8).toString("latin1") === "ftyp" },
  { mime: "audio/mpeg", ext: "mp3", test: (b) => b.subarray(0, 3).toString("latin1") === "ID3" || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0) },
];

/** Media types that share a container with another (e.g. WebM video carrying only audio). */
const ALIASES: Record<string, string> = {
  "audio/x-wav": "audio/wav", "audio/wave": "audio/wav", "audio/mp3": "audio/mpeg",
  "video/webm": "audio/webm", "audio/x-m4a": "audio/mp4", "image/jpg": "image/jpeg",
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
  const m = /^data:([^,;]+(?:;[^,;=]+=[^,;]+)*);base64,([A-Za-z0-9+/]*={0,2})$/.exec(input.data);
  if (!m) throw new AppError("validation_failed", `${opts.field}.data: must be a base64 data URL (data:<type>;base64,…).`);
  const declared = baseMime(input.mime ?? m[1]);
  if (input.mime && baseMime(input.mime) !== baseMime(m[1])) {
    throw new AppError("validation_failed", `${opts.field}.mime: '${input.mime}' does not match the data URL's type '${m[1]}'.`);
  }
  const allowed = opts.kind === "image" ? IMAGE_TYPES : AUDIO_TYPES;
  if (!allowed.includes(declared)) {
    throw new AppError("unsupported_media_type", `${opts.field}: ${opts.kind} uploads accept ${allowed.join(", ")}; got ${declared}.`);
  }
  const size = decodedBase64Size(m[2]);
  if (size === undefined) throw new AppError("validation_failed", `${opts.field}.data: is not valid base64.`);
  if (size > opts.maxBytes) {
    throw new AppError("payload_too_large", `${opts.field}: ${size} bytes, larger than ${opts.maxBytes} bytes (UPLOAD_MAX_BYTES).`);
  }
  const bytes = Buffer.from(m[2], "base64");
  if (!bytes.length) throw new AppError("validation_failed", `${opts.field}.data: is empty.`);
  const sniffed = SIGNATURES.find((s) => s.test(bytes));
  if (!sniffed || sniffed.mime !== declared) {
    throw new AppError("unsupported_media_type", `${opts.field}: the content is not ${declared}${sniffed ? ` (it looks like ${sniffed.mime})` : ""}.`);
  }
  return { kind: opts.kind, mime: declared, ext: sniffed.ext, name: safeFileName(input.name ?? `upload.${sniffed.ext}`), bytes };
}

/** A display name with no path parts or odd characters; never used as a storage path. */
export function safeFileName(name: string): string {
  return path.basename(name.replace(/\\/g, "/")).replace(/[^\w.\- ]+/g, "_").slice(0, 120) || "upload";
}

/**
 * Stores an upload inside `<dataDir>/uploads/<chatflowId>/`, named by its content's SHA-256 (the
 * same image sent 50 times is one file); returns its relative path.
 */
export async function storeUpload(dataDir: string, chatflowId: string, upload: CheckedUpload): Promise<string> {
  return storeContentAddressed(dataDir, chatflowUploadsDir(chatflowId), upload.bytes, upload.ext);
}
