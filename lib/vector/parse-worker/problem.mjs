// A problem of the uploaded file itself, carried back to the server as { code, message }: the
// code is one of lib/errors.ts (unprocessable → 422, payload_too_large → 413).
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

/**
 * The problem to report for an error thrown while reading `name` as `what`.
 * @param {{ name: string }} file
 * @param {string} what
 * @param {unknown} e
 */
export function unreadable(file, what, e) {
  if (e instanceof ParseProblem) return e;
  const reason = e instanceof Error ? e.message : String(e);
  return new ParseProblem("unprocessable", `${file.name}: could not read the ${what} (${reason.slice(0, 200)}).`);
}
