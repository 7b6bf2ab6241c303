import type { ZodType } from "zod";
import { AppError } from "@/common/errors";
import { getEnv } from "../env";
import { assertJsonDepth, assertNoNul } from "./input-checks";

/**
 * Request bodies, read once at the edge by route() (its `body` option) so that handlers and the
 * services behind them get parsed data: JSON checked with a zod schema, or a multipart form whose
 * files were counted, sized and checked as they were read.
 */

/** A multipart form as handlers get it: checked files and the other (text) fields as sent. */
export interface MultipartForm<F> {
  files: F[];
  /** Text fields, one value or several when repeated. */
  fields: Record<string, string | string[]>;
}

/** How route() reads a multipart/form-data body. */
export interface MultipartSpec<F> {
  /** Largest body accepted, in bytes: beyond it, 413 "The upload is larger than … bytes." */
  maxBytes: number;
  /** The one form field that carries files; a file in any other field is 400. */
  fileField: string;
  /** Most files accepted: beyond it, 413 "At most N files per <what>." */
  maxFiles: number;
  /** What the upload is for, in messages ("upsert"). */
  what: string;
  /** Checks (and converts) one file as it is read; throws an AppError to refuse it. */
  file: (name: string, bytes: Buffer) => F;
}

/**
 * route()'s `body` option. `json` alone: the body must be JSON and the handler gets the parsed
 * value. With `multipart` too: a multipart/form-data body is read as a form, anything else as
 * JSON, and the handler gets `{ json }` or `{ form }`. `multipart` is a function so that caps read
 * from the environment apply to each request.
 */
export interface BodySpec<B, F> {
  json: ZodType<B>;
  /** Largest JSON body accepted, in bytes (default 1 MiB). */
  maxBytes?: number;
  /** Longest the route waits for its whole JSON body, ms (default BODY_TIMEOUT_MS); past it 408. */
  timeoutMs?: number;
  multipart?: () => MultipartSpec<F>;
}

/** What a handler gets for a body that may be JSON or a multipart form. */
export type JsonOrForm<B, F> = { json: B; form?: undefined } | { json?: undefined; form: MultipartForm<F> };

/** The parsed body of a route: B for JSON only, JsonOrForm when a form is accepted too, undefined without a body option. */
export type ParsedBody<B, F> = [F] extends [never] ? B : JsonOrForm<B, F>;

type Parse = <T>(schema: ZodType<T>, input: unknown) => T;

/** Whether the request sends a multipart/form-data body. */
export const isMultipart = (req: Request) => /^multipart\/form-data/i.test(req.headers.get("content-type") ?? "");

/** Largest JSON body a route takes unless its spec says otherwise. */
export const DEFAULT_JSON_MAX_BYTES = 1024 * 1024;

/** The most bytes a request's body may have under its spec: the form's cap for multipart, else the JSON cap. */
export function bodyCap<B, F>(req: Request, spec: BodySpec<B, F>): { maxBytes: number; what: string } {
  if (spec.multipart && isMultipart(req)) return { maxBytes: spec.multipart().maxBytes, what: "The upload" };
  return { maxBytes: spec.maxBytes ?? DEFAULT_JSON_MAX_BYTES, what: "Body" };
}

/**
 * 413 for a body whose declared Content-Length is past the route's cap, from the header alone: route()
 * calls it before authentication, so nobody can make the server wait for (or read) a body it would
 * refuse anyway. Chunked bodies are counted while they are read (readBodyCapped).
 */
export function refuseDeclaredTooLarge<B, F>(req: Request, spec: BodySpec<B, F>): void {
  const declared = req.headers.get("content-length");
  if (declared === null) return;
  const { maxBytes, what } = bodyCap(req, spec);
  if (Number(declared) > maxBytes) throw tooLarge(what, maxBytes);
}

/** The one 413 of a body past its cap, naming the cap. */
function tooLarge(what: string, maxBytes: number): AppError {
  return new AppError("payload_too_large", `${what} is larger than ${maxBytes} bytes (${mebibytes(maxBytes)}).`);
}

/** A byte count for people: "20 MiB", "1.5 MiB", "64 KiB". */
export function mebibytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
}

/** Reads a request body as its spec says; `parse` validates JSON (400 naming fields). */
export async function readBody<B, F>(req: Request, spec: BodySpec<B, F>, parse: Parse): Promise<ParsedBody<B, F>> {
  if (spec.multipart && isMultipart(req)) {
    return { form: await readMultipart(req, spec.multipart()) } as ParsedBody<B, F>;
  }
  const json = parse(spec.json, await readJson(req, spec.maxBytes, spec.timeoutMs));
  return (spec.multipart ? { json } : json) as ParsedBody<B, F>;
}

/**
 * Reads a JSON body with a size cap and a clear error for the wrong media type or bad JSON; refuses
 * nesting deeper than MAX_JSON_DEPTH and NUL characters (naming the field) before anything uses it.
 */
export async function readJson(
  req: Request,
  maxBytes = DEFAULT_JSON_MAX_BYTES,
  timeoutMs = getEnv().BODY_TIMEOUT_MS,
): Promise<unknown> {
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  const text = (await readBodyCapped(req, maxBytes, "Body", timeoutMs)).toString("utf8");
  if (!text.trim()) return {};
  assertJsonDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", "Body is not valid JSON.");
  }
  assertNoNul(value, "body");
  return value;
}

/**
 * A form field that carries JSON as a string (Flowise's `overrideConfig`, `history`): the same
 * checks as a JSON body (nesting depth, NUL characters), errors naming the field.
 */
export function readJsonField(text: string, field: string): unknown {
  assertJsonDepth(text, field);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", `${field}: must be a JSON string (form field "${field}" is not valid JSON).`);
  }
  assertNoNul(value, field);
  return value;
}

/**
 * Parses a multipart/form-data body, read with a size cap before it is parsed: files only in
 * `fileField`, counted and checked one by one (spec.file) in the order sent; NUL refused in text
 * fields (PostgreSQL cannot store it: refused here, before any model is called).
 */
export async function readMultipart<F>(req: Request, spec: MultipartSpec<F>): Promise<MultipartForm<F>> {
  // An upload may take as long as the server gives a whole request (REQUEST_TIMEOUT_MS).
  const bytes = await readBodyCapped(req, spec.maxBytes, "The upload", getEnv().REQUEST_TIMEOUT_MS);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), {
      headers: { "content-type": req.headers.get("content-type") ?? "" },
    }).formData();
  } catch {
    throw new AppError("bad_request", "The body is not valid multipart/form-data.");
  }
  const files: F[] = [];
  const fields: Record<string, string | string[]> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value !== "string") {
      if (key !== spec.fileField)
        throw new AppError(
          "validation_failed",
          `Send files in the form field "${spec.fileField}" (got a file in "${key}").`,
        );
      if (files.length >= spec.maxFiles)
        throw new AppError("payload_too_large", `At most ${spec.maxFiles} files per ${spec.what}.`);
      files.push(spec.file(value.name, Buffer.from(await value.arrayBuffer())));
      continue;
    }
    if (key.includes("\u0000") || value.includes("\u0000")) {
      throw new AppError(
        "bad_request",
        `Form field "${key.replace(/\u0000/g, "")}": must not contain a NUL character.`,
      );
    }
    const prev = fields[key];
    fields[key] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  }
  return { files, fields };
}

/**
 * Reads a request body up to `maxBytes`; 413 naming the cap beyond that (declared or streamed). A body
 * not whole within `timeoutMs` (however slowly it trickles in), or cut off by the client, is 408
 * `request_timeout` (npm start's server also answers a body idle past BODY_IDLE_TIMEOUT_MS).
 */
export async function readBodyCapped(
  req: Request,
  maxBytes: number,
  what = "Body",
  timeoutMs = getEnv().BODY_TIMEOUT_MS,
): Promise<Buffer> {
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge(what, maxBytes);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AppError("request_timeout", `${what} did not arrive within ${timeoutMs} ms.`)),
      timeoutMs,
    );
  });
  late.catch(() => {}); // settled only when it wins a race below
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await Promise.race([reader.read(), late]);
      } catch (err) {
        await reader.cancel().catch(() => {});
        if (err instanceof AppError) throw err;
        throw new AppError("request_timeout", `${what} did not arrive whole (the client stopped sending).`, {
          cause: err,
        });
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(what, maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}
