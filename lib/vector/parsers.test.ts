import { describe, expect, it } from "vitest";
import { makeDocx, makePdf } from "../../tests/support/documents";
import { decodeSavedFile, fileDocumentSource, savedFileName } from "./loaders";
import { parseCsv, parseDocx, parseJson, parsePdf } from "./parsers";

const file = (name: string, content: string | Buffer) => ({
  name,
  bytes: typeof content === "string" ? Buffer.from(content) : content,
});

describe("parsers", () => {
  it("reads PDF pages with their page numbers, or the whole file as one document", async () => {
    const pdf = file("guide.pdf", makePdf(["First line", "Second line"]));
    expect(await parsePdf(pdf, true)).toEqual([
      { pageContent: "First line\nSecond line", metadata: { source: "guide.pdf", page: 1 } },
    ]);
    expect(await parsePdf(pdf, false)).toEqual([
      { pageContent: "First line\nSecond line", metadata: { source: "guide.pdf", pages: 1 } },
    ]);
  });

  it("answers 422 naming the file for a broken PDF", async () => {
    await expect(parsePdf(file("broken.pdf", Buffer.from("%PDF-1.4 garbage")), true)).rejects.toMatchObject({
      code: "unprocessable",
      message: expect.stringMatching(/^broken.pdf: could not read the PDF/),
    });
  });

  it("reads a DOCX's paragraphs", async () => {
    expect(await parseDocx(file("a.docx", makeDocx(["One", "Two & three"])))).toEqual([
      { pageContent: "One\n\nTwo & three", metadata: { source: "a.docx" } },
    ]);
  });

  it("reads CSV rows as column: value lines, optionally only some columns", async () => {
    const csv = file("faq.csv", 'q,a,internal\nWarranty?,2 years,x\n\n"Ship, abroad?",Yes,y\n');
    expect(await parseCsv(csv)).toEqual([
      { pageContent: "q: Warranty?\na: 2 years\ninternal: x", metadata: { source: "faq.csv", row: 1 } },
      { pageContent: "q: Ship, abroad?\na: Yes\ninternal: y", metadata: { source: "faq.csv", row: 2 } },
    ]);
    expect((await parseCsv(csv, ["q", "a"]))[0].pageContent).toBe("q: Warranty?\na: 2 years");
    await expect(parseCsv(csv, ["nope"])).rejects.toMatchObject({
      code: "unprocessable",
      message: expect.stringContaining("no column named nope"),
    });
  });

  it("selects JSON strings with a pointer (with * wildcards), or every string without one", async () => {
    const json = file(
      "faq.json",
      JSON.stringify({
        faq: [
          { q: "a?", answer: "A" },
          { q: "b?", answer: "B" },
        ],
        meta: { title: "T" },
      }),
    );
    const select = async (pointer: string) =>
      (await parseJson(json, pointer)).map((d) => [d.metadata.pointer, d.pageContent]);
    expect(await select("/faq/*/answer")).toEqual([
      ["/faq/0/answer", "A"],
      ["/faq/1/answer", "B"],
    ]);
    expect(await select("/meta/title")).toEqual([["/meta/title", "T"]]);
    expect((await select("")).map(([, text]) => text)).toEqual(["a?", "A", "b?", "B", "T"]);
    expect(await select("/missing/*")).toEqual([]);
    expect((await parseJson(file("f.jsonl", '{"t":"x"}\n{"t":"y"}\n'), "/*/t")).map((d) => d.metadata)).toEqual([
      { source: "f.jsonl", pointer: "/0/t" },
      { source: "f.jsonl", pointer: "/1/t" },
    ]);
    await expect(parseJson(file("bad.json", "{"), "")).rejects.toMatchObject({
      code: "unprocessable",
      message: expect.stringMatching(/^bad.json: could not read the JSON/),
    });
  });
});

describe("file loaders", () => {
  it("decode saved files: data: URLs as bytes, anything else as text", () => {
    expect(decodeSavedFile("data:application/pdf;base64,JVBERi0=", "L").toString("latin1")).toBe("%PDF-");
    expect(decodeSavedFile("plain text", "L").toString()).toBe("plain text");
    expect(() => decodeSavedFile("data:text/plain,oops", "L")).toThrow(/not a base64 data: URL/);
  });

  it("read the file name a canvas data: URL carries, without path parts", () => {
    const bytes = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0x00, 0x80]);
    const value = `data:application/pdf;name=${encodeURIComponent("my terms.pdf")};base64,${bytes.toString("base64")}`;
    expect(savedFileName(value)).toBe("my terms.pdf");
    expect(decodeSavedFile(value, "L").equals(bytes)).toBe(true);
    expect(savedFileName(`data:application/pdf;name=${encodeURIComponent("../../etc/passwd")};base64,AA==`)).toBe(
      "passwd",
    );
    expect(savedFileName("data:application/pdf;base64,AA==")).toBeUndefined();
    expect(savedFileName("name=x.pdf plain text")).toBeUndefined();
  });

  it("read matching uploads instead of the saved file, and the saved file otherwise", async () => {
    const source = fileDocumentSource({
      label: "Notes",
      accepts: ["text/plain"],
      params: { file: "saved text", metadata: { team: "a", source: "ignored" } },
      parse: (f) => [{ pageContent: f.bytes.toString(), metadata: { source: f.name } }],
    });
    expect(await source.load([])).toEqual([{ pageContent: "saved text", metadata: { team: "a", source: "Notes" } }]);
    const upload = { name: "up.txt", mime: "text/plain", ext: "txt", bytes: Buffer.from("uploaded") };
    const pdf = { name: "x.pdf", mime: "application/pdf", ext: "pdf", bytes: Buffer.from("%PDF-") };
    expect(await source.load([upload, pdf])).toEqual([
      { pageContent: "uploaded", metadata: { team: "a", source: "up.txt" } },
    ]);
  });
});
