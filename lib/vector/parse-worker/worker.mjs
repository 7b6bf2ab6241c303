// Entry of a parse worker process (started by lib/vector/parse-pool.ts with a heap limit). Each
// message is one file to parse; the answer is its documents or a problem { code, message }. A
// hostile file costs this process (killed past the time limit, or dead of its heap limit), never
// the server's event loop or memory.
import { parseCsv, parseDocx, parseJson, parsePdf, splitDocuments } from "./parsers.mjs";
import { ParseProblem } from "./problem.mjs";

const PARSERS = {
  pdf: (file, opts, limits) => parsePdf(file, opts, limits),
  docx: (file, _opts, limits) => parseDocx(file, limits),
  csv: (file, opts, limits) => parseCsv(file, opts, limits),
  json: (file, opts, limits) => parseJson(file, opts, limits),
  split: (_file, opts) => splitDocuments(opts),
};

process.on("message", async ({ id, kind, name, bytes, opts, limits }) => {
  try {
    const parse = PARSERS[kind];
    if (!parse) throw new Error(`unknown parser ${kind}`);
    const file = { name, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    process.send({ id, ok: true, docs: await parse(file, opts, limits) });
  } catch (e) {
    const problem =
      e instanceof ParseProblem
        ? e
        : new ParseProblem("unprocessable", `${name}: ${e instanceof Error ? e.message : String(e)}`);
    process.send({ id, ok: false, code: problem.code, message: problem.message });
  }
});
// The server went away: nothing is left to answer.
process.on("disconnect", () => process.exit(0));
