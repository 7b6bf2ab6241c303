import { describe, expect, it } from "vitest";
import { safeFileName } from "./names";

describe("safeFileName", () => {
  it("keeps the last path segment of either slash", () => {
    expect(safeFileName("../../etc/passwd")).toBe("passwd");
    expect(safeFileName("..\\..\\boot.ini")).toBe("boot.ini");
    expect(safeFileName("dir/sub/")).toBe("sub");
  });

  it("keeps letters of every script, digits, space, dot, dash and underscore", () => {
    expect(safeFileName("my terms_v2-final.pdf")).toBe("my terms_v2-final.pdf");
    expect(safeFileName("Straße Übersicht.pdf")).toBe("Straße Übersicht.pdf");
    expect(safeFileName("報告書.docx")).toBe("報告書.docx");
  });

  it("replaces controls, invisible format characters and other symbols by _", () => {
    expect(safeFileName("a\u0000b.pdf")).toBe("a_b.pdf");
    expect(safeFileName("invoice\u202Efdp.exe")).toBe("invoice_fdp.exe");
    expect(safeFileName("<script>.png")).toBe("_script_.png");
    expect(safeFileName("a%2fb.txt")).toBe("a_2fb.txt");
  });

  it("trims, caps at 120 characters and falls back when nothing usable is left", () => {
    expect(safeFileName("  spaced.txt  ")).toBe("spaced.txt");
    expect(safeFileName(`${"é".repeat(200)}.txt`)).toHaveLength(120);
    for (const name of ["", "/", "..", ".", "a/..", "   "]) expect(safeFileName(name), name).toBe("upload");
    expect(safeFileName("..", "")).toBe("");
  });
});
