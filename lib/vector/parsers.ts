import { getEnv } from "../env";
import { AppError } from "@/common/errors";
import { parseInWorker } from "./parse-pool";
import type { StoreDocument } from "./types";

/**
 * File parsers of the loaders: bytes in, documents out, each with `source` metadata. PDF, DOCX,
 * CSV and JSON are parsed in worker processes (./parse-pool.ts, code in ./parse-worker/) with time,
 * memory, page, inflated-size and text caps; a file that cannot be read or is over a cap is the
 * caller's problem (422 or 413 naming the file and the setting), never a 500.
 */

export interface NamedBytes {
  name: string;
  bytes: Buffer;
}

/** A text or Markdown file as one document (capped like the other parsers' text). */
export function parseText(file: NamedBytes): StoreDocument[] {
  const max = getEnv().UPSERT_MAX_TEXT_BYTES;
  if (file.bytes.length > max)
    throw new AppError("payload_too_large", `${file.name}: more than ${max} bytes of text (UPSERT_MAX_TEXT_BYTES).`);
  const text = file.bytes.toString("utf8").replace(/^\uFEFF/, "");
  return text.trim() ? [{ pageContent: text, metadata: { source: file.name } }] : [];
}

/** A PDF's text layer: one document per page (with `page`), or one for the whole file. */
export function parsePdf(file: NamedBytes, perPage: boolean): Promise<StoreDocument[]> {
  return parseInWorker({ kind: "pdf", ...file, opts: { perPage } });
}

/** A Word document's text as one document. */
export function parseDocx(file: NamedBytes): Promise<StoreDocument[]> {
  return parseInWorker({ kind: "docx", ...file, opts: {} });
}

/**
 * A CSV file: one document per row, as "column: value" lines (only `columns` when given), with the
 * row number (1 = first data row) in metadata.
 */
export function parseCsv(file: NamedBytes, columns?: string[]): Promise<StoreDocument[]> {
  return parseInWorker({ kind: "csv", ...file, opts: { columns } });
}

/**
 * A JSON file (or JSON Lines): one document per string the pointer selects (`/items/*\/body`
 * walks keys, `*` takes every element; no pointer: every string), with its path in `pointer`.
 */
export function parseJson(file: NamedBytes, pointer: string): Promise<StoreDocument[]> {
  return parseInWorker({ kind: "json", ...file, opts: { pointer } });
}
