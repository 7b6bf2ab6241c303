// @ts-check
// A zip reader with a cap on the total inflated size, for DOCX files. Runs inside the parse
// worker (JavaScript checked by tsc: the worker is loaded by Node at run time, not by the bundler).
// A zip bomb is refused twice: first by the sizes its central directory declares (before any
// inflation), then while inflating, because declared sizes can lie.
import zlib from "node:zlib";
import { ParseProblem } from "./problem.mjs";

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** @param {Buffer} bytes */
function findEndOfCentralDirectory(bytes) {
  // The record is 22 bytes plus a comment of at most 65,535 bytes, at the very end.
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= stop; i--) if (bytes.readUInt32LE(i) === EOCD) return i;
  return -1;
}

/**
 * The entries of a zip's central directory.
 * @param {Buffer} bytes
 * @returns {Map<string, {method: number, compressedSize: number, size: number, localOffset: number}>}
 */
function readCentralDirectory(bytes) {
  const end = findEndOfCentralDirectory(bytes);
  if (end < 0) throw new Error("not a zip archive (no end of central directory)");
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) throw new Error("broken zip central directory");
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    entries.set(name, {
      method: bytes.readUInt16LE(at + 10),
      compressedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localOffset: bytes.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

/**
 * Opens a zip for mammoth (its `{ file }` input: `exists(name)` and `read(name, encoding)`),
 * refusing more than `maxInflatedBytes` of content in total.
 * @param {Buffer} bytes
 * @param {{ name: string, maxInflatedBytes: number }} opts
 */
export function openCappedZip(bytes, { name, maxInflatedBytes }) {
  const entries = readCentralDirectory(bytes);
  const tooLarge = () =>
    new ParseProblem(
      "payload_too_large",
      `${name}: the document inflates to more than ${maxInflatedBytes} bytes (UPSERT_MAX_INFLATED_BYTES).`,
    );
  let declared = 0;
  // 0xffffffff marks a zip64 size: far beyond any cap we would set, so it counts as too large.
  for (const e of entries.values()) declared += e.size === 0xffffffff ? Infinity : e.size;
  if (declared > maxInflatedBytes) throw tooLarge();

  let inflated = 0;
  /** @type {Map<string, Buffer>} */
  const cache = new Map();
  /** @param {string} entryName @returns {Buffer} */
  const inflate = (entryName) => {
    const e = entries.get(entryName);
    if (!e) throw new Error(`the archive has no ${entryName}`);
    if (bytes.readUInt32LE(e.localOffset) !== LOCAL) throw new Error(`broken zip entry ${entryName}`);
    const start = e.localOffset + 30 + bytes.readUInt16LE(e.localOffset + 26) + bytes.readUInt16LE(e.localOffset + 28);
    const data = bytes.subarray(start, start + e.compressedSize);
    const budget = maxInflatedBytes - inflated;
    let out;
    if (e.method === 0) out = data;
    else if (e.method === 8) {
      try {
        // maxOutputLength stops inflation as soon as the budget is exceeded, whatever was declared.
        out = zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, budget + 1) });
      } catch (err) {
        if (err && /** @type {{code?: string}} */ (err).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
        throw err;
      }
    } else throw new Error(`unsupported zip compression method ${e.method} in ${entryName}`);
    if (out.length > budget) throw tooLarge();
    inflated += out.length;
    return out;
  };
  /** @param {string} entryName */
  const contents = (entryName) => {
    let out = cache.get(entryName);
    if (!out) cache.set(entryName, (out = inflate(entryName)));
    return out;
  };
  return {
    exists: (/** @type {string} */ entryName) => entries.has(entryName),
    read: async (/** @type {string} */ entryName, /** @type {string | undefined} */ encoding) => {
      const out = contents(entryName);
      if (encoding === "base64") return out.toString("base64");
      return encoding ? new TextDecoder(encoding).decode(out) : new Uint8Array(out);
    },
  };
}
