// @ts-check
// The file parsers of the loaders: bytes in, documents out, each with `source` metadata. They run
// only inside the parse worker (worker.mjs), never on the server's event loop, and they enforce
// the caps a file could otherwise blow past: PDF pages, inflated DOCX size, extracted text.
// JavaScript (typed with JSDoc, checked by tsc) on purpose: Node loads this file at run time, in
// tests and in the Next.js build alike, and it imports only packages the build leaves external
// (next.config.mjs).
import { BrokenParser, ParseProblem, unreadable } from "./problem.mjs";
import { openCappedZip } from "./zip.mjs";

/**
 * @typedef {{ name: string, bytes: Buffer }} NamedBytes
 * @typedef {{ maxPdfPages: number, maxInflatedBytes: number, maxTextBytes: number }} ParseLimits
 * @typedef {{ pageContent: string, metadata: Record<string, unknown> }} StoreDocument
 * @typedef {{ chunkSize: number, chunkOverlap: number, separators: string[], keepSeparator: boolean }} SplitterSettings
 */

/**
 * @param {string} pageContent
 * @param {Record<string, unknown>} metadata
 * @returns {StoreDocument}
 */
const doc = (pageContent, metadata) => ({ pageContent, metadata });

/**
 * Counts extracted text and stops at the cap, so a small file cannot expand without bound.
 * @param {NamedBytes} file @param {ParseLimits} limits
 */
function textBudget(file, limits) {
  let used = 0;
  return (/** @type {string} */ text) => {
    used += Buffer.byteLength(text, "utf8");
    if (used > limits.maxTextBytes) {
      throw new ParseProblem(
        "payload_too_large",
        `${file.name}: more than ${limits.maxTextBytes} bytes of text (UPSERT_MAX_TEXT_BYTES).`,
      );
    }
    return text;
  };
}

/**
 * A PDF's text layer: one document per page (with `page`), or one for the whole file. The page
 * count is checked before any page is read.
 * @param {NamedBytes} file @param {{ perPage: boolean }} opts @param {ParseLimits} limits
 */
export async function parsePdf(file, opts, limits) {
  const { PDFParse } = await import("pdf-parse");
  const parser = new PDFParse({ data: new Uint8Array(file.bytes) });
  const count = textBudget(file, limits);
  try {
    const total = await pdfPageCount(parser);
    if (total > limits.maxPdfPages) {
      throw new ParseProblem(
        "payload_too_large",
        `${file.name}: ${total} pages, more than ${limits.maxPdfPages} (UPSERT_MAX_PDF_PAGES).`,
      );
    }
    const pages = [];
    for (let num = 1; num <= total; num++) {
      const [page] = (await parser.getText({ partial: [num] })).pages;
      const text = count(page?.text ?? "").trim();
      if (text) pages.push({ num, text });
    }
    if (opts.perPage) return pages.map((p) => doc(p.text, { source: file.name, page: p.num }));
    const all = pages.map((p) => p.text).join("\n\n");
    return all ? [doc(all, { source: file.name, pages: total })] : [];
  } catch (e) {
    throw unreadable(file, "PDF", e);
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}

/**
 * A PDF's page count, read before any page: pdf-parse's private `load()` opens the document (pdf.js's
 * getDocument) and answers pdf.js's document, whose `numPages` we read. The public `getInfo()` would
 * read the metadata, outline and page labels of an untrusted file first. Private, so checked: when an
 * upgrade removes or changes it, every PDF fails with BrokenParser (a 500 naming docs/upgrading.md),
 * never as the file's fault (lib/vector/parse-worker/parsers.test.ts).
 * @param {import("pdf-parse").PDFParse} parser
 * @returns {Promise<number>}
 */
export async function pdfPageCount(parser) {
  const { load } = /** @type {{ load?: unknown }} */ (/** @type {unknown} */ (parser));
  if (typeof load !== "function")
    throw new BrokenParser("pdf-parse: PDFParse has no load() any more; see docs/upgrading.md (pdf-parse).");
  // A file pdf.js refuses throws here: parsePdf reports that as the file's problem (422).
  const loaded = await load.call(parser);
  const pages = /** @type {{ numPages?: unknown } | undefined} */ (loaded)?.numPages;
  if (typeof pages !== "number")
    throw new BrokenParser(
      "pdf-parse: PDFParse.load() no longer answers a document with numPages; see docs/upgrading.md (pdf-parse).",
    );
  return pages;
}

/**
 * A Word document's text as one document. mammoth reads our capped zip through its `{ file }` input
 * (undocumented: see docs/upgrading.md); its "Could not find file in options" means it no longer does.
 * @param {NamedBytes} file @param {ParseLimits} limits
 */
export async function parseDocx(file, limits) {
  const mammoth = (await import("mammoth")).default;
  try {
    const zip = openCappedZip(file.bytes, { name: file.name, maxInflatedBytes: limits.maxInflatedBytes });
    const input = /** @type {Parameters<typeof mammoth.extractRawText>[0]} */ (/** @type {unknown} */ ({ file: zip }));
    const { value } = await mammoth.extractRawText(input).catch((/** @type {unknown} */ e) => {
      if (e instanceof Error && e.message === "Could not find file in options")
        throw new BrokenParser("mammoth: extractRawText no longer takes { file }; see docs/upgrading.md (mammoth).");
      throw e;
    });
    const text = textBudget(
      file,
      limits,
    )(value)
      .replace(/\n{3,}/g, "\n\n")
      .trim();
    return text ? [doc(text, { source: file.name })] : [];
  } catch (e) {
    throw unreadable(file, "Word document", e);
  }
}

/**
 * A CSV file: one document per row, as "column: value" lines (only `columns` when given), with the
 * row number (1 = first data row) in metadata.
 * @param {NamedBytes} file @param {{ columns?: string[] }} opts @param {ParseLimits} limits
 */
export async function parseCsv(file, opts, limits) {
  const Papa = (await import("papaparse")).default;
  const parsed = Papa.parse(file.bytes.toString("utf8").replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
  });
  const fatal = parsed.errors.find((e) => e.type !== "FieldMismatch");
  if (fatal) throw unreadable(file, "CSV", new Error(`row ${(fatal.row ?? 0) + 1}: ${fatal.message}`));
  const fields = parsed.meta.fields ?? [];
  const columns = opts.columns ?? [];
  const missing = columns.filter((c) => !fields.includes(c));
  if (missing.length)
    throw new ParseProblem(
      "unprocessable",
      `${file.name}: no column named ${missing.join(", ")} (columns: ${fields.join(", ")}).`,
    );
  const use = columns.length ? columns : fields;
  const count = textBudget(file, limits);
  return parsed.data
    .map((row, i) => doc(count(use.map((c) => `${c}: ${row[c] ?? ""}`).join("\n")), { source: file.name, row: i + 1 }))
    .filter((d) => d.pageContent.replace(/^[^:]*: ?$/gm, "").trim());
}

/**
 * The strings a pointer selects in a JSON value: `/items/*\/body` walks keys, `*` takes every array
 * element or object value. Without a pointer, every string in the document.
 * @param {unknown} value @param {string} pointer
 * @returns {{ path: string, text: string }[]}
 */
export function selectJson(value, pointer) {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  /** @type {{ path: string, text: string }[]} */
  const out = [];
  /** @param {unknown} v @param {number} i @param {string} at */
  const walk = (v, i, at) => {
    if (i === parts.length) {
      if (typeof v === "string") out.push({ path: at || "/", text: v });
      else if (parts.length === 0 && v && typeof v === "object")
        for (const [k, c] of Object.entries(v)) walk(c, 0, `${at}/${k}`);
      return;
    }
    if (!v || typeof v !== "object") return;
    const key = parts[i];
    const record = /** @type {Record<string, unknown>} */ (v);
    const entries = key === "*" ? Object.entries(record) : Object.hasOwn(record, key) ? [[key, record[key]]] : [];
    for (const [k, c] of entries) walk(c, i + 1, `${at}/${k}`);
  };
  walk(value, 0, "");
  return out;
}

/**
 * A JSON file (or JSON Lines): one document per string the pointer selects, with its path.
 * @param {NamedBytes} file @param {{ pointer: string }} opts @param {ParseLimits} limits
 */
export function parseJson(file, opts, limits) {
  const text = file.bytes.toString("utf8").replace(/^\uFEFF/, "");
  let value;
  try {
    value = file.name.toLowerCase().endsWith(".jsonl")
      ? text
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l))
      : JSON.parse(text);
  } catch (e) {
    throw unreadable(file, "JSON", e);
  }
  const count = textBudget(file, limits);
  return selectJson(value, opts.pointer.trim())
    .filter((s) => s.text.trim())
    .map((s) => doc(count(s.text), { source: file.name, pointer: s.path }));
}

/**
 * Splits documents with a recursive character splitter (the splitter node's settings), so a
 * large text is cut here rather than on the server's event loop. Chunks keep their document's
 * metadata (plus the splitter's `loc`).
 * @param {{ docs: StoreDocument[], splitter: SplitterSettings }} opts
 * @returns {Promise<StoreDocument[]>}
 */
export async function splitDocuments(opts) {
  const { RecursiveCharacterTextSplitter } = await import("@langchain/textsplitters");
  const splitter = new RecursiveCharacterTextSplitter(opts.splitter);
  const out = [];
  for (const d of opts.docs) {
    for (const c of await splitter.splitDocuments([{ pageContent: d.pageContent, metadata: d.metadata }])) {
      out.push({ pageContent: c.pageContent, metadata: c.metadata });
    }
  }
  return out;
}
