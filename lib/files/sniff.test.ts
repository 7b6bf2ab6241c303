import { describe, expect, it } from "vitest";
import { makeDocx, makePdf, makeZip } from "../../tests/support/documents";
import { sniffType } from "./sniff";

const head = (...bytes: number[]) => Buffer.concat([Buffer.from(bytes), Buffer.alloc(16)]);
const ascii = (text: string) => Buffer.concat([Buffer.from(text, "latin1"), Buffer.alloc(16)]);

describe("sniffType", () => {
  it("names every type by its magic bytes", () => {
    const cases: [Buffer, string][] = [
      [makePdf(["x"]), "application/pdf"],
      [makeDocx(["x"]), "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
      [head(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), "image/png"],
      [head(0xff, 0xd8, 0xff, 0xe0), "image/jpeg"],
      [ascii("GIF89a"), "image/gif"],
      [ascii("RIFF\0\0\0\0WEBP"), "image/webp"],
      [head(0x1a, 0x45, 0xdf, 0xa3), "audio/webm"],
      [ascii("OggS"), "audio/ogg"],
      [ascii("RIFF\0\0\0\0WAVE"), "audio/wav"],
      [ascii("\0\0\0\x20ftypM4A "), "audio/mp4"],
      [ascii("ID3\x04"), "audio/mpeg"],
      [head(0xff, 0xfb, 0x90), "audio/mpeg"],
    ];
    for (const [bytes, mime] of cases) expect(sniffType(bytes, ["image", "audio", "document"])?.mime, mime).toBe(mime);
  });

  it("looks only among the kinds asked for", () => {
    expect(sniffType(makePdf(["x"]), ["image", "audio"])).toBeUndefined();
    expect(sniffType(head(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a), ["document"])).toBeUndefined();
  });

  it("knows a zip without word/document.xml and text are neither", () => {
    expect(sniffType(makeZip({ "a.txt": "hello" }), ["document"])).toBeUndefined();
    expect(sniffType(Buffer.from("plain text"), ["image", "audio", "document"])).toBeUndefined();
    expect(sniffType(Buffer.alloc(0), ["image", "audio", "document"])).toBeUndefined();
  });
});
