/**
 * Small, valid document files built in code for upload tests: a one-page PDF with text lines and a
 * DOCX (a zip of WordprocessingML parts). Keeps binary fixtures out of the repository.
 */
import zlib from "node:zlib";

/** A one-page PDF whose text layer holds `lines` (Helvetica, one line each). */
export function makePdf(lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = ["BT", "/F1 12 Tf", "14 TL", "72 720 Td", ...lines.map((l) => `(${esc(l)}) Tj T*`), "ET"].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("");
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** One zip entry: stored (method 0) unless given a method, with its true size and CRC unless given. */
type ZipEntry = { name: string; data: Buffer; method?: number; size?: number; crc?: number };

/** A zip archive of stored (uncompressed) entries. */
export function makeZip(entries: Record<string, string>): Buffer {
  return writeZip(Object.entries(entries).map(([name, text]) => ({ name, data: Buffer.from(text, "utf8") })));
}

function writeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data, method = 0, size = data.length, crc = zlib.crc32(data) } of entries) {
    const nameBytes = Buffer.from(name, "utf8");
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** A minimal Word document with one paragraph per line. */
export function makeDocx(paragraphs: string[]): Buffer {
  return makeZip(docxParts(paragraphs));
}

/** The parts of makeDocx's document, by zip entry name. */
function docxParts(paragraphs: string[]): Record<string, string> {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join("");
  return {
    "[Content_Types].xml":
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    "_rels/.rels":
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    "word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  };
}

/**
 * A PDF of `pages` pages that all draw one shared content stream: thousands of pages in a small
 * file, the shape that used to block the server while pdf.js read it.
 */
export function makeManyPagePdf(pages: number, lines = ["Page text for the parser to read."]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = ["BT", "/F1 12 Tf", "14 TL", "72 720 Td", ...lines.map((l) => `(${esc(l)}) Tj T*`), "ET"].join("\n");
  const firstPage = 5;
  const kids = Array.from({ length: pages }, (_, i) => `${firstPage + i} 0 R`).join(" ");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    `<< /Length ${Buffer.byteLength(stream, "latin1")} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ...Array.from(
      { length: pages },
      () =>
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>",
    ),
  ];
  const parts = ["%PDF-1.4\n"];
  let size = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(size);
    const obj = `${i + 1} 0 obj\n${body}\nendobj\n`;
    parts.push(obj);
    size += Buffer.byteLength(obj, "latin1");
  });
  parts.push(
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`),
  );
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${size}\n%%EOF\n`);
  return Buffer.from(parts.join(""), "latin1");
}

/**
 * A DOCX whose word/document.xml deflates `inflatedBytes` of XML into a small file (a zip bomb).
 * With `declare: "small"` its zip directories claim the part is tiny (declared sizes can lie).
 */
export function makeDocxBomb(inflatedBytes: number, declare: "true" | "small" = "true"): Buffer {
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>';
  const tail = "</w:t></w:r></w:p></w:body></w:document>";
  const xml = Buffer.concat([
    Buffer.from(head),
    Buffer.alloc(inflatedBytes - head.length - tail.length, "a"),
    Buffer.from(tail),
  ]);
  const deflated = zlib.deflateRawSync(xml, { level: 9 });
  const size = declare === "true" ? xml.length : 100;
  return writeZip(
    Object.entries(docxParts(["placeholder"])).map(([name, text]) =>
      name === "word/document.xml"
        ? { name, data: deflated, method: 8, size, crc: zlib.crc32(xml) }
        : { name, data: Buffer.from(text, "utf8") },
    ),
  );
}
