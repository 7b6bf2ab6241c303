/**
 * What a file's first bytes say it is: one table of magic numbers for every type we accept by
 * content (image and audio uploads, PDF and DOCX documents).
 */

export type SniffKind = "image" | "audio" | "document";

export interface Signature {
  mime: string;
  /** The extension a file of this type is stored under. */
  ext: string;
  kind: SniffKind;
  test: (b: Buffer) => boolean;
}

const ascii = (b: Buffer, start: number, end: number) => b.subarray(start, end).toString("latin1");
const bytesAre = (b: Buffer, start: number, expected: number[]) =>
  b.subarray(start, start + expected.length).equals(Buffer.from(expected));

/** In order: the first that matches wins (JPEG before MP3's frame sync, which JPEG's first bytes also match). */
export const SIGNATURES: readonly Signature[] = [
  { mime: "application/pdf", ext: "pdf", kind: "document", test: (b) => ascii(b, 0, 5) === "%PDF-" },
  {
    // A DOCX is a zip archive holding word/document.xml.
    mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ext: "docx",
    kind: "document",
    test: (b) => bytesAre(b, 0, [0x50, 0x4b, 0x03, 0x04]) && b.includes("word/document.xml", 0, "latin1"),
  },
  {
    mime: "image/png",
    ext: "png",
    kind: "image",
    test: (b) => bytesAre(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { mime: "image/jpeg", ext: "jpg", kind: "image", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: "image/gif", ext: "gif", kind: "image", test: (b) => /^GIF8[79]a/.test(ascii(b, 0, 6)) },
  {
    mime: "image/webp",
    ext: "webp",
    kind: "image",
    test: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP",
  },
  { mime: "audio/webm", ext: "webm", kind: "audio", test: (b) => bytesAre(b, 0, [0x1a, 0x45, 0xdf, 0xa3]) },
  { mime: "audio/ogg", ext: "ogg", kind: "audio", test: (b) => ascii(b, 0, 4) === "OggS" },
  {
    mime: "audio/wav",
    ext: "wav",
    kind: "audio",
    test: (b) => ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WAVE",
  },
  { mime: "audio/mp4", ext: "m4a", kind: "audio", test: (b) => ascii(b, 4, 8) === "ftyp" },
  {
    mime: "audio/mpeg",
    ext: "mp3",
    kind: "audio",
    test: (b) => ascii(b, 0, 3) === "ID3" || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0),
  },
];

/** The type the content's magic bytes name, among signatures of these kinds; undefined when none matches. */
export function sniffType(bytes: Buffer, kinds: readonly SniffKind[]): Signature | undefined {
  return SIGNATURES.find((s) => kinds.includes(s.kind) && s.test(bytes));
}
