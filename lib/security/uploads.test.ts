import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkDataUrlUpload, decodedBase64Size } from "./uploads";

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (size: number) => Buffer.concat([PNG_MAGIC, Buffer.alloc(size - PNG_MAGIC.length, 7)]);

describe("decodedBase64Size", () => {
  it("is the exact decoded length for every length, padded or not", () => {
    for (let n = 0; n <= 64; n++) {
      const b64 = randomBytes(n).toString("base64");
      expect(decodedBase64Size(b64), `${n} bytes padded`).toBe(n);
      expect(decodedBase64Size(b64.replace(/=+$/, "")), `${n} bytes unpadded`).toBe(n);
    }
  });

  it("refuses lengths no base64 text has", () => {
    expect(decodedBase64Size("QUJDR")).toBeUndefined();
    expect(decodedBase64Size("QQ=")).toBeUndefined();
  });
});

describe("checkDataUrlUpload size cap", () => {
  const check = (bytes: Buffer) =>
    checkDataUrlUpload(
      { data: `data:image/png;base64,${bytes.toString("base64")}` },
      { kind: "image", maxBytes: 4096, field: "uploads.0" },
    );

  it("takes exactly maxBytes and refuses one byte more, whatever the padding", () => {
    for (const size of [4094, 4095, 4096]) expect(check(png(size)).bytes.length).toBe(size);
    for (const size of [4097, 4098, 4099]) {
      expect(() => check(png(size))).toThrow(
        expect.objectContaining({
          code: "payload_too_large",
          message: `uploads.0: ${size} bytes, larger than 4096 bytes (UPLOAD_MAX_BYTES).`,
        }),
      );
    }
  });
});
