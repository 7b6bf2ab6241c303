/** What an incoming `x-request-id` may be; anything else is replaced with a new id. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `x-request-id` when well-formed, else a new UUID. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get("x-request-id");
  return given && REQUEST_ID_PATTERN.test(given) ? given : crypto.randomUUID();
}
