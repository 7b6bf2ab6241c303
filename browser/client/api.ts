import type { z } from "zod";

/** Browser-side calls to our own API. Errors carry the server's code and message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** What a call sends, and the schema of what it expects back (common/schemas, the server's own). */
export interface ApiInit<S extends z.ZodType> {
  method?: string;
  body?: unknown;
  schema: S;
}

/**
 * fetch + JSON. An error answer (`{error:{code,message}}`) becomes an ApiError with the server's code;
 * a success whose body does not match `schema` becomes an ApiError `invalid_response` naming the
 * first difference, so the studio shows it like any other failed call instead of rendering a wrong shape.
 */
export async function api<S extends z.ZodType>(path: string, init: ApiInit<S>): Promise<z.output<S>> {
  const method = init.method ?? "GET";
  const res = await fetch(path, {
    method,
    headers: init.body === undefined ? undefined : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const err = data?.error ?? { code: "http_error", message: `Request failed with status ${res.status}` };
    throw new ApiError(res.status, err.code, err.message, err.details);
  }
  return readAnswer(init.schema, data, { call: `${method} ${path}`, status: res.status });
}

/**
 * A successful answer's body read with its schema (also for calls made without `api`, such as an
 * upload with progress): an ApiError `invalid_response` naming the call and the first difference.
 */
export function readAnswer<S extends z.ZodType>(
  schema: S,
  data: unknown,
  { call, status }: { call: string; status: number },
): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const first = parsed.error.issues[0];
  const where = first?.path.length ? ` at ${first.path.map(String).join(".")}` : "";
  const message = `The server's answer to ${call} is not in the expected shape${where}: ${first?.message ?? "invalid"}.`;
  throw new ApiError(status, "invalid_response", message, { issues: parsed.error.issues });
}
