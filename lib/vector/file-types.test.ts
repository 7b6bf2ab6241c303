import { describe, expect, it } from "vitest";
import { makeDocx, makePdf, makeZip } from "../../tests/support/documents";
import { detectFileType, sniffContent } from "./file-types";

describe("upload type detection", () => {
  it("recognises PDF and DOCX by their bytes and text formats by name + UTF-8 content", () => {
    expect(detectFileType("a.pdf", makePdf(["x"]))).toEqual({
      type: expect.objectContaining({ mime: "application/pdf" }),
    });
    expect(detectFileType("a.docx", makeDocx(["x"]))).toEqual({
      type: expect.objectContaining({ mime: expect.stringContaining("wordprocessingml") }),
    });
    expect(detectFileType("notes.MD", Buffer.from("# héllo"))).toEqual({
      type: expect.objectContaining({ mime: "text/markdown" }),
    });
    expect(detectFileType("rows.csv", Buffer.from("a,b\n1,2"))).toEqual({
      type: expect.objectContaining({ mime: "text/csv" }),
    });
  });

  it("refuses content that contradicts the name", () => {
    expect(detectFileType("fake.pdf", Buffer.from("hello"))).toEqual({
      problem: "the name says PDF, but the content is plain text",
    });
    expect(detectFileType("notes.txt", makePdf(["x"]))).toEqual({
      problem: "the name says Text, but the content is a PDF",
    });
    expect(detectFileType("notes.txt", Buffer.from([0x68, 0x00, 0x69]))).toMatchObject({
      problem: expect.stringContaining("binary data"),
    });
    // A zip that is not a Word document (no word/document.xml) is not a DOCX.
    expect(detectFileType("a.docx", makeZip({ "x.txt": "hi" }))).toMatchObject({
      problem: expect.stringContaining("the name says Word"),
    });
  });

  it("takes a PDF without a known extension by its bytes, and refuses unknown types", () => {
    expect(detectFileType("scan", makePdf(["x"]))).toMatchObject({ type: { mime: "application/pdf" } });
    expect(detectFileType("run.exe", Buffer.from("MZ\u0000"))).toEqual({
      problem: "the file type .exe is not one the loaders read",
    });
    expect(sniffContent(Buffer.from([0xc3, 0x28]))).toBeUndefined();
  });
});
