import mammoth from "mammoth";
import { PDFParse } from "pdf-parse";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeDocx, makeManyPagePdf } from "../../../tests/support/documents";
import { parseDocx, parsePdf, pdfPageCount } from "./parsers.mjs";
import { BrokenParser, ParseProblem } from "./problem.mjs";

// The parsers' borrowed internals (docs/upgrading.md, "The document parsers"), run here in this process:
// the installed versions still do what we rely on, and when an upgrade takes it away every file fails
// as a broken parser (a 500 the server logs), never as the file's fault (a 422 telling the user to fix it).

const limits = { maxPdfPages: 3, maxInflatedBytes: 1_000_000, maxTextBytes: 1_000_000 };
const pdf = (pages: number) => ({ name: "manual.pdf", bytes: makeManyPagePdf(pages) });

// The prototype method parsePdf's parsers inherit (private in pdf-parse's typings).
const pdfParse = PDFParse.prototype as unknown as { load: unknown };
const realLoad = pdfParse.load;
afterEach(() => {
  pdfParse.load = realLoad;
  vi.restoreAllMocks();
});

describe("pdf-parse's private load() (the page count before any page is read)", () => {
  it("answers the installed pdf-parse's document with its page count", async () => {
    const parser = new PDFParse({ data: new Uint8Array(pdf(5).bytes) });
    try {
      expect(await pdfPageCount(parser)).toBe(5);
    } finally {
      await parser.destroy();
    }
    // Over the cap: refused by the count, as the file's problem.
    await expect(parsePdf(pdf(5), { perPage: true }, limits)).rejects.toMatchObject({
      code: "payload_too_large",
      message: expect.stringContaining("5 pages, more than 3"),
    });
    expect(await parsePdf(pdf(3), { perPage: true }, limits)).toHaveLength(3);
  });

  it("fails as a broken parser, naming docs/upgrading.md, when load() is gone", async () => {
    pdfParse.load = undefined;
    const err = await parsePdf(pdf(1), { perPage: true }, limits).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokenParser);
    expect(err).not.toBeInstanceOf(ParseProblem);
    expect((err as Error).message).toMatch(/pdf-parse: PDFParse has no load\(\).*docs\/upgrading\.md/);
  });

  it("fails as a broken parser when load() no longer answers a document with numPages", async () => {
    pdfParse.load = async () => ({ pages: 1 });
    const err = await parsePdf(pdf(1), { perPage: false }, limits).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokenParser);
    expect((err as Error).message).toMatch(/load\(\) no longer answers a document with numPages/);
  });

  it("still reports a file pdf.js refuses as the file's problem (422)", async () => {
    const broken = { name: "broken.pdf", bytes: Buffer.from("%PDF-1.4 garbage") };
    await expect(parsePdf(broken, { perPage: true }, limits)).rejects.toMatchObject({
      code: "unprocessable",
      message: expect.stringMatching(/^broken.pdf: could not read the PDF/),
    });
  });
});

describe("mammoth's { file } input (our capped zip)", () => {
  it("reads a DOCX through the capped zip with the installed mammoth", async () => {
    expect(await parseDocx({ name: "a.docx", bytes: makeDocx(["One", "Two"]) }, limits)).toEqual([
      { pageContent: "One\n\nTwo", metadata: { source: "a.docx" } },
    ]);
  });

  it("fails as a broken parser when mammoth no longer takes { file }", async () => {
    // What mammoth's lib/unzip.js answers for an input it does not know.
    vi.spyOn(mammoth, "extractRawText").mockRejectedValue(new Error("Could not find file in options"));
    const err = await parseDocx({ name: "a.docx", bytes: makeDocx(["One"]) }, limits).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokenParser);
    expect((err as Error).message).toMatch(/mammoth: .*docs\/upgrading\.md/);
  });
});
