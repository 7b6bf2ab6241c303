/**
 * The value a file param saves: a text file's text (readable and editable in the saved JSON), or a
 * binary file (PDF, DOCX, anything not UTF-8) as `data:<mime>;name=<file name>;base64,…`, which the
 * server's loaders decode byte for byte. Reading a binary file with `file.text()` would replace
 * every invalid UTF-8 sequence and corrupt it.
 */
import { base64DataSize, dataUrlFileName, parseDataUrl } from "@/common/files/data-url";

const BINARY_TYPES: Record<string, string> = {
  ".pdf": "application/pdf",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

/** Largest binary file kept in a flow: its base64 (4/3 larger) must fit the flow's 5 MiB save. */
const MAX_BINARY_FILE_BYTES = 3_000_000;
const MAX_TEXT_FILE_BYTES = 5_000_000;

const extOf = (name: string) => /\.[^.]+$/.exec(name.toLowerCase())?.[0] ?? "";

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** UTF-8 text without NUL bytes, or undefined for binary content. */
function asText(bytes: Uint8Array): string | undefined {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return text.includes("\u0000") ? undefined : text;
  } catch {
    return undefined;
  }
}

/** The param value for a picked file, or a problem to show (too large). */
export async function readFileValue(file: File): Promise<{ value: string } | { problem: string }> {
  const binaryType = BINARY_TYPES[extOf(file.name)];
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = binaryType ? undefined : asText(bytes);
  if (text !== undefined) {
    return bytes.length > MAX_TEXT_FILE_BYTES ? { problem: "The file is larger than 5 MB." } : { value: text };
  }
  if (bytes.length > MAX_BINARY_FILE_BYTES) {
    return { problem: "The file is larger than 3 MB: upload it through the upsert API instead." };
  }
  const mime = binaryType ?? (file.type || "application/octet-stream");
  return { value: `data:${mime};name=${encodeURIComponent(file.name)};base64,${toBase64(bytes)}` };
}

/** What the field shows about a saved value: the file name (when known) and its size. */
export function describeFileValue(value: string): { name?: string; summary: string } {
  const url = parseDataUrl(value);
  if (!url?.type || !url.base64) return { summary: `${value.split("\n").length} lines` };
  const bytes = base64DataSize(url);
  return { name: dataUrlFileName(url), summary: bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes` };
}
