// Entry of a parse worker thread (started by lib/vector/parse-pool.ts). Each message is one file
// to parse; the answer is its documents or a problem { code, message }. The server gives the
// thread a heap limit and terminates it past the time limit, so a hostile file costs a worker,
// never the server's event loop.
import { parentPort } from "node:worker_threads";
import { parseCsv, parseDocx, parseJson, parsePdf } from "./parsers.mjs";
import { ParseProblem } from "./problem.mjs";

const PARSERS = {
  pdf: (file, opts, limits) => parsePdf(file, opts, limits),
  docx: (file, _opts, limits) => parseDocx(file, limits),
  csv: (file, opts, limits) => parseCsv(file, opts, limits),
  json: (file, opts, limits) => parseJson(file, opts, limits),
};

parentPort.on("message", async ({ id, kind, name, bytes, opts, limits }) => {
  try {
    const parse = PARSERS[kind];
    if (!parse) throw new Error(`unknown parser ${kind}`);
    const file = { name, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    parentPort.postMessage({ id, ok: true, docs: await parse(file, opts, limits) });
  } catch (e) {
    const problem = e instanceof ParseProblem ? e : new ParseProblem("unprocessable", `${name}: ${e instanceof Error ? e.message : String(e)}`);
    parentPort.postMessage({ id, ok: false, code: problem.code, message: problem.message });
  }
});
