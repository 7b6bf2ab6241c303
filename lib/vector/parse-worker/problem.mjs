// @ts-check
// What a parse can fail with, carried back to the server by the worker (worker.mjs):
// - a problem of the uploaded file itself, as { code, message }, the code one of common/errors.ts
//   (unprocessable → 422, payload_too_large → 413);
// - a parser library that no longer does what we rely on (BrokenParser): our bug, never the file's,
//   answered as code "internal" so the server fails loudly (500, logged) instead of blaming the file.
export class ParseProblem extends Error {
  /**
   * @param {"unprocessable" | "payload_too_large"} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** A library's private API we use is gone or changed (see docs/upgrading.md); no file reads until it is fixed. */
export class BrokenParser extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "BrokenParser";
  }
}

/**
 * The problem to report for an error thrown while reading `name` as `what`.
 * @param {{ name: string }} file
 * @param {string} what
 * @param {unknown} e
 * @returns {ParseProblem | BrokenParser}
 */
export function unreadable(file, what, e) {
  if (e instanceof ParseProblem || e instanceof BrokenParser) return e;
  const reason = e instanceof Error ? e.message : String(e);
  return new ParseProblem("unprocessable", `${file.name}: could not read the ${what} (${reason.slice(0, 200)}).`);
}
