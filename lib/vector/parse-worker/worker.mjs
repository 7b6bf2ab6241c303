// @ts-check
// Entry of a parse worker process (started by lib/vector/parse-pool.ts with a heap limit). Each
// message is one file to parse; the answer is its documents or a problem { code, message }. A
// hostile file costs this process (killed past the time limit, or dead of its heap limit), never
// the server's event loop or memory.
import { parseCsv, parseDocx, parseJson, parsePdf, splitDocuments } from "./parsers.mjs";
import { BrokenParser, ParseProblem } from "./problem.mjs";

/**
 * @typedef {import("./parsers.mjs").NamedBytes} NamedBytes
 * @typedef {import("./parsers.mjs").ParseLimits} ParseLimits
 * @typedef {import("./parsers.mjs").StoreDocument} StoreDocument
 * @typedef {{
 *   pdf: { perPage: boolean },
 *   docx: Record<string, never>,
 *   csv: { columns?: string[] },
 *   json: { pointer: string },
 *   split: { docs: StoreDocument[], splitter: import("./parsers.mjs").SplitterSettings },
 * }} ParseOptions What lib/vector/parsers.ts and loaders.ts send as `opts` for each kind.
 * @typedef {keyof ParseOptions} ParseKind
 * @typedef {(file: NamedBytes, opts: unknown, limits: ParseLimits) => Promise<StoreDocument[]> | StoreDocument[]} Parser
 * @typedef {{ id: number, kind: ParseKind, name: string, bytes: Uint8Array, opts: unknown, limits: ParseLimits }} ParseRequest
 * @typedef {{ id: number, ok: true, docs: StoreDocument[] }
 *   | { id: number, ok: false, code: ParseProblem["code"] | "internal", message: string }} ParseAnswer
 */

/** @type {{ [K in ParseKind]: (file: NamedBytes, opts: ParseOptions[K], limits: ParseLimits) => Promise<StoreDocument[]> | StoreDocument[] }} */
const PARSERS = {
  pdf: (file, opts, limits) => parsePdf(file, opts, limits),
  docx: (file, _opts, limits) => parseDocx(file, limits),
  csv: (file, opts, limits) => parseCsv(file, opts, limits),
  json: (file, opts, limits) => parseJson(file, opts, limits),
  split: (_file, opts) => splitDocuments(opts),
};

/** The parser of a kind; its `opts` are trusted to be that kind's (they come from our own server). */
const parserOf = (/** @type {string} */ kind) =>
  Object.hasOwn(PARSERS, kind) ? /** @type {Parser} */ (PARSERS[/** @type {ParseKind} */ (kind)]) : undefined;

/** @param {ParseAnswer} answer */
const answer = (answer) => process.send?.(answer);

process.on("message", async (/** @type {ParseRequest} */ { id, kind, name, bytes, opts, limits }) => {
  try {
    const parse = parserOf(kind);
    if (!parse) throw new Error(`unknown parser ${kind}`);
    const file = { name, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    answer({ id, ok: true, docs: await parse(file, opts, limits) });
  } catch (e) {
    // A parser library that changed is our bug: "internal", so the server fails loudly (500, logged).
    if (e instanceof BrokenParser) return answer({ id, ok: false, code: "internal", message: e.message });
    const problem =
      e instanceof ParseProblem
        ? e
        : new ParseProblem("unprocessable", `${name}: ${e instanceof Error ? e.message : String(e)}`);
    answer({ id, ok: false, code: problem.code, message: problem.message });
  }
});
// The server went away: nothing is left to answer.
process.on("disconnect", () => process.exit(0));
