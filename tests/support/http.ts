import { encode } from "next-auth/jwt";
import { sessionSecret } from "../../lib/security/secrets";
import { findSessionUserById } from "../../lib/db/queries/users";

/** A route file's exported method (what `call` invokes). */
export type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type CallOptions = {
  method?: string;
  path?: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  /** JSON-encoded, or sent as multipart/form-data when a FormData. */
  body?: unknown;
  rawBody?: string;
};

/** Calls a real route handler with a real Request and returns status, headers and parsed body. */
export async function call(handler: RouteHandler, opts: CallOptions = {}) {
  const headers = new Headers(opts.headers);
  let body: string | FormData | undefined = opts.rawBody;
  if (opts.body instanceof FormData) {
    // A multipart form: Request sets the content-type with its boundary.
    body = opts.body;
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const req = new Request(`http://127.0.0.1:3000${opts.path ?? "/api/v1/x"}`, {
    method: opts.method ?? "GET",
    headers,
    body,
  });
  const res = await handler(req, { params: Promise.resolve(opts.params ?? {}) });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer along whatever path it asserts on (error shapes included); expect() is the check, and a type here would be a cast at every call site.
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** What `call` answers: status, headers, the parsed JSON body (undefined when not JSON) and the raw text. */
export type CallResult = Awaited<ReturnType<typeof call>>;

/** Authorization header values for each kind of caller. */
export const auth = {
  bearer: (key: string) => ({ authorization: `Bearer ${key}` }),
  basic: (email: string, password: string) => ({
    authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`,
  }),
  /** A real next-auth session cookie for a user id, signed with the server's secret, for the user's current session version. */
  async session(userId: string, email = "user@example.com") {
    const sv = (await findSessionUserById({ id: userId }))?.sessionVersion ?? 0;
    const token = await encode({ token: { sub: userId, email, sv }, secret: sessionSecret() });
    return { cookie: `next-auth.session-token=${token}` };
  },
};
