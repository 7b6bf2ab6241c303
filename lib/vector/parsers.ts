import { AppError } from "../errors";
import type { StoreDocument } from "./types";

/**
 * File parsers of the loaders: bytes in, documents out, each with `source` metadata. A file that
 * cannot be read is the caller's problem (422 naming the file), never a 500.
 */

export interface NamedBytes {
  name: string;
  bytes: Buffer;
}

function unreadable(file: NamedBytes, what: string, e: unknown): AppError {
  const reason = e instanceof Error ? e.message : String(e);
  return new AppError("unprocessable", `${file.name}: could not read the ${what} (${reason.slice(0, 200)}).`, { cause: e });
}

const doc = (pageContent: string, metadata: Record<string, unknown>): StoreDocument => ({ pageContent, metadata });

/** A text or Markdown file as one document. */
export function parseText(file: NamedBytes): StoreDocument[] {
  const text = file.bytes.toString("utf8").replace(/^\uFEFF/, "");
  return text.trim() ? [doc(text, { source: file.name })] : [];
}

/** A PDF's text layer: one document per page (with `page`), or one for the whole file. */
export async function parsePdf(file: NamedBytes, perPage: boolean): Promise<StoreDocument[]> {
  const { PDFParse } = await import("pdf-parse");
  const parser = new PDFParse({ data: new Uint8Array(file.bytes) });
  try {
    const result = await parser.getText();
    const pages = result.pages.map((p) => ({ num: p.num, text: p.text.trim() })).filter((p) => p.text);
    if (perPage) return pages.map((p) => doc(p.text, { source: file.name, page: p.num }));
    const all = pages.map((p) => p.text).join("\n\n");
    return all ? [doc(all, { source: file.name, pages: result.total })] : [];
  } catch (e) {
    throw unreadable(file, "PDF", e);
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/** A Word document's text as one document. */
export async function parseDocx(file: NamedBytes): Promise<StoreDocument[]> {
  const mammoth = (await import("mammoth")).default;
  try {
    const { value } = await mammoth.extractRawText({ buffer: file.bytes });
    const text = value.replace(/\n{3,}/g, "\n\n").trim();
    return text ? [doc(text, { source: file.name })] : [];
  } catch (e) {
    throw unreadable(file, "Word document", e);
  }
}

/**
 * A CSV file: one document per row, as "column: value" lines (only `columns` when given), with the
 * row number (1 = first data row) in metadata.
 */
export async function parseCsv(file: NamedBytes, columns?: string[]): Promise<StoreDocument[]> {
  const Papa = (await import("papaparse")).default;
  const parsed = Papa.parse<Record<string, string>>(file.bytes.toString("utf8").replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: "greedy" });
  const fatal = parsed.errors.find((e) => e.type !== "FieldMismatch");
  if (fatal) throw unreadable(file, "CSV", new Error(`row ${(fatal.row ?? 0) + 1}: ${fatal.message}`));
  const fields = parsed.meta.fields ?? [];
  const missing = (columns ?? []).filter((c) => !fields.includes(c));
  if (missing.length) throw new AppError("unprocessable", `${file.name}: no column named ${missing.join(", ")} (columns: ${fields.join(", ")}).`);
  const use = columns?.length ? columns : fields;
  return parsed.data
    .map((row, i) => doc(use.map((c) => `${c}: ${row[c] ?? ""}`).join("\n"), { source: file.name, row: i + 1 }))
    .filter((d) => d.pageContent.replace(/^[^:]*: ?$/gm, "").trim());
}

/**
 * The strings a pointer selects in a JSON value: `/items/*\/body` walks keys, `*` takes every array
 * element or object value. Without a pointer, every string in the document.
 */
export function selectJson(value: unknown, pointer: string): { path: string; text: string }[] {
  const parts = pointer.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  const out: { path: string; text: string }[] = [];
  const walk = (v: unknown, i: number, at: string) => {
    if (i === parts.length) {
      if (typeof v === "string") out.push({ path: at || "/", text: v });
      else if (parts.length === 0 && v && typeof v === "object") for (const [k, c] of Object.entries(v)) walk(c, 0, `${at}/${k}`);
      return;
    }
    if (!v || typeof v !== "object") return;
    const key = parts[i];
    const entries = key === "*" ? Object.entries(v) : Object.hasOwn(v, key) ? [[key, (v as Record<string, unknown>)[key]] as const] : [];
    for (const [k, c] of entries) walk(c, i + 1, `${at}/${k}`);
  };
  walk(value, 0, "");
  return out;
}

/** A JSON file (or JSON Lines): one document per string the pointer selects, with its path. */
export function parseJson(file: NamedBytes, pointer: string): StoreDocument[] {
  const text = file.bytes.toString("utf8").replace(/^\uFEFF/, "");
  let value: unknown;
  try {
    value = file.name.toLowerCase().endsWith(".jsonl") ? text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)) : JSON.parse(text);
  } catch (e) {
    throw unreadable(file, "JSON", e);
  }
  return selectJson(value, pointer.trim())
    .filter((s) => s.text.trim())
    .map((s) => doc(s.text, { source: file.name, pointer: s.path }));
}
