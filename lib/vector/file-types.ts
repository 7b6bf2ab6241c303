import path from "node:path";
import { sniffType } from "../files/sniff";

/**
 * File types the loaders read, and how an upload's content is checked against its name. Binary
 * formats are recognised by their magic bytes (lib/files/sniff.ts: PDF, DOCX = a zip holding word/document.xml); text
 * formats must be valid UTF-8 without NUL bytes, and their extension picks the loader.
 */

export interface FileType {
  mime: string;
  exts: string[];
  label: string;
  binary: boolean;
}

export const FILE_TYPES = {
  pdf: { mime: "application/pdf", exts: [".pdf"], label: "PDF", binary: true },
  docx: {
    mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    exts: [".docx"],
    label: "Word (DOCX)",
    binary: true,
  },
  text: { mime: "text/plain", exts: [".txt", ".text", ".log"], label: "Text", binary: false },
  markdown: { mime: "text/markdown", exts: [".md", ".markdown", ".mdx"], label: "Markdown", binary: false },
  csv: { mime: "text/csv", exts: [".csv"], label: "CSV", binary: false },
  json: { mime: "application/json", exts: [".json", ".jsonl"], label: "JSON", binary: false },
} satisfies Record<string, FileType>;

const ALL: FileType[] = Object.values(FILE_TYPES);

/** "PDF (.pdf)" style names of media types, for messages. */
export function describeTypes(mimes: readonly string[]): string {
  return mimes
    .map((m) => ALL.find((t) => t.mime === m))
    .filter((t): t is FileType => Boolean(t))
    .map((t) => `${t.label} (${t.exts.join(", ")})`)
    .join(", ");
}

function isText(b: Buffer): boolean {
  if (b.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
}

/** What the content is: a binary type by magic bytes, "text" for UTF-8 text, or undefined. */
export function sniffContent(bytes: Buffer): "pdf" | "docx" | "text" | undefined {
  const binary = sniffType(bytes, ["document"])?.ext;
  if (binary === "pdf" || binary === "docx") return binary;
  return isText(bytes) ? "text" : undefined;
}

/**
 * The file type of an upload from its name and content, or an explanation of why it is refused.
 * The extension must name a known type and the content must be that type.
 */
export function detectFileType(name: string, bytes: Buffer): { type: FileType } | { problem: string } {
  const ext = path.extname(name).toLowerCase();
  const byExt = ALL.find((t) => t.exts.includes(ext));
  const sniffed = sniffContent(bytes);
  if (!byExt) {
    const guess = sniffed === "pdf" ? FILE_TYPES.pdf : sniffed === "docx" ? FILE_TYPES.docx : undefined;
    if (guess) return { type: guess };
    return { problem: `the file type ${ext || "(no extension)"} is not one the loaders read` };
  }
  const ok = byExt.binary ? sniffed === (byExt === FILE_TYPES.pdf ? "pdf" : "docx") : sniffed === "text";
  if (!ok) {
    const what =
      sniffed === "pdf"
        ? "a PDF"
        : sniffed === "docx"
          ? "a Word document"
          : sniffed === "text"
            ? "plain text"
            : "binary data";
    return { problem: `the name says ${byExt.label}, but the content is ${what}` };
  }
  return { type: byExt };
}
