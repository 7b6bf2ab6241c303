import { createHash } from "node:crypto";
import { AppError } from "@/common/errors";
import type { Caller } from "@/common/access/callers";
import { getEnv } from "../env";
import type { Logger } from "../log";
import {
  claimIdempotencyKey,
  releaseIdempotencyKey,
  storeIdempotentAnswer,
  type StoredAnswer,
} from "../services/idempotency";
import { bodyCap, isMultipart, readBodyCapped, type BodySpec } from "./body";
import { errorResponse } from "./responses";

/**
 * The HTTP side of `Idempotency-Key` (the stored claims are lib/services/idempotency.ts): route()
 * applies it to routes declaring `idempotency`, and the OpenAPI document shows the header on them.
 */

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENT_REPLAYED_HEADER = "Idempotent-Replayed";

/** What a route declares to take `Idempotency-Key`: optionally a refusal for bodies whose answer cannot be replayed. */
export type IdempotencySpec<B> = {
  /** A reason to refuse the key for this body (400), e.g. a streamed answer; undefined to accept it. */
  refuse?: (body: B) => string | undefined;
};

/** Headers of an answer a replay gives back with its body (the rest describe the original request). */
const REPLAYED_HEADERS = ["content-type", "content-disposition", "location", "x-chatflow-version"];
/** Answers not stored: server faults, a body that stopped arriving, a rate limit. A retry runs again. */
const UNSTORED_STATUSES = new Set([408, 429]);
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;

/**
 * The refusal (400) of a key on a request asking for a streamed answer (`on`, e.g. `stream: true`):
 * a stream is not stored to be given back, so the caller is told to ask for JSON (`off`) instead.
 */
export function streamedAnswerRefusal(on: string, off: string): string {
  return `Idempotency-Key cannot be used with ${on} (a stream is not stored to be given back): send ${off} for a JSON answer that a retry can replay.`;
}

/** This request's key, checked (1–255 printable ASCII characters, else 400); undefined without the header. */
export function idempotencyKeyOf(req: Request): string | undefined {
  const key = req.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return undefined;
  if (!KEY_FORMAT.test(key))
    throw new AppError(
      "idempotency_key_invalid",
      "Idempotency-Key must be 1 to 255 printable ASCII characters (a UUID is a good key).",
    );
  return key;
}

/** Whose keys these are: an API key's, or a user's. Anonymous callers have no keys of their own (400). */
export function idempotencyScopeOf(caller: Caller): string {
  if (caller.kind === "apiKey") return `key:${caller.key.id}`;
  if (caller.kind === "user") return `user:${caller.user.id}`;
  throw new AppError(
    "idempotency_key_invalid",
    "Idempotency-Key needs a caller of its own: send an API key (Authorization: Bearer …) or sign in.",
  );
}

/**
 * Reads the body's bytes (within the route's cap, as readBody would) for the fingerprint, and gives
 * back a request carrying them for readBody to parse.
 */
export async function bufferRequestBody<B, F>(
  req: Request,
  spec: BodySpec<B, F> | undefined,
): Promise<{ request: Request; bytes: Buffer }> {
  if (!spec || !req.body) return { request: req, bytes: Buffer.alloc(0) };
  const { maxBytes, what } = bodyCap(req, spec);
  const timeoutMs = spec.multipart && isMultipart(req) ? getEnv().REQUEST_TIMEOUT_MS : spec.timeoutMs;
  const bytes = await readBodyCapped(req, maxBytes, what, timeoutMs);
  const request = new Request(req.url, { method: req.method, headers: req.headers, body: new Uint8Array(bytes) });
  return { request, bytes };
}

/**
 * sha256 over method, path with query, the caller's scope and the body. A multipart body is hashed
 * as its parts (names, values, file names and bytes), not its bytes: a client retrying an upload
 * picks a new boundary.
 */
export async function requestFingerprint(req: Request, scope: string, bytes: Buffer): Promise<string> {
  const url = new URL(req.url);
  const hash = createHash("sha256").update(`${req.method}\n${url.pathname}${url.search}\n${scope}\n`);
  const form = isMultipart(req) ? await formOf(req, bytes) : undefined;
  if (!form) return hash.update(bytes).digest("hex");
  for (const [name, value] of form) {
    hash.update(`${name.length}:${name}`);
    if (typeof value === "string") hash.update(`s${value.length}:${value}`);
    else
      hash
        .update(`f${value.name.length}:${value.name}${value.size}:`)
        .update(new Uint8Array(await value.arrayBuffer()));
  }
  return hash.digest("hex");
}

async function formOf(req: Request, bytes: Buffer): Promise<FormData | undefined> {
  try {
    const type = req.headers.get("content-type") ?? "";
    return await new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData();
  } catch {
    return undefined; // readBody already refused a malformed form; hash its bytes
  }
}

/**
 * Runs `run` once per caller and key: the first request runs and its answer is stored (unless
 * 5xx, 408, 429 or a stream, which release the key for a retry); a retry with the same request gets
 * the stored answer with `Idempotent-Replayed: true`; 409s for another request or one still running.
 */
export async function runIdempotent(args: {
  scope: string;
  key: string;
  fingerprint: string;
  log: Logger;
  run: () => Promise<Response>;
}): Promise<Response> {
  const claim = await claimIdempotencyKey(args);
  if (claim.kind === "replay") return replayResponse(claim.answer);
  let response: Response;
  try {
    response = await args.run();
  } catch (err) {
    await releaseIdempotencyKey(claim.id);
    throw err;
  }
  const streamed = response.headers.get("content-type")?.startsWith("text/event-stream");
  if (response.status >= 500 || UNSTORED_STATUSES.has(response.status) || streamed) {
    await releaseIdempotencyKey(claim.id);
    return response;
  }
  const body = new Uint8Array(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  try {
    await storeIdempotentAnswer(claim.id, { status: response.status, body, headers });
  } catch (err) {
    // The work is done: answer it; a retry will run again rather than see a half-stored answer.
    args.log.warn({ err }, "idempotency: the answer could not be stored");
    await releaseIdempotencyKey(claim.id).catch(() => {});
  }
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * A request with a key, run once: its fingerprint (method, path with query, `scope`, the body's
 * `bytes`) claims the key, and the answer of `run` (its errors as error answers) is stored or given
 * back (runIdempotent). route() uses it for routes declaring `idempotency`; a route that reads its own
 * body and has no caller of its own (a webhook, scoped to its flow) calls it directly.
 */
export async function answerOnce(args: {
  req: Request;
  scope: string;
  key: string;
  bytes: Buffer;
  log: Logger;
  requestId: string;
  run: () => Promise<Response>;
}): Promise<Response> {
  const { log, requestId } = args;
  return runIdempotent({
    scope: args.scope,
    key: args.key,
    fingerprint: await requestFingerprint(args.req, args.scope, args.bytes),
    log,
    // The handler's own errors (a 409 name in use, a 404) are answers to store like any other.
    run: () => args.run().catch((err: unknown) => errorResponse(err, log, requestId)),
  });
}

function replayResponse(answer: StoredAnswer): Response {
  return new Response(answer.status === 204 ? null : new Uint8Array(answer.body), {
    status: answer.status,
    headers: { ...answer.headers, [IDEMPOTENT_REPLAYED_HEADER]: "true" },
  });
}
