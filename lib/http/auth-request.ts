import { NextRequest } from "next/server";
import { AppError } from "@/common/errors";
import { readBodyCapped } from "./body";

/** The actions next-auth 4 serves (`/api/auth/<action>/…`); it answers others with a plain-text 400. */
const AUTH_ACTIONS = [
  "providers",
  "session",
  "csrf",
  "signin",
  "signout",
  "callback",
  "verify-request",
  "error",
  "_log",
];

/**
 * Checks a request to next-auth before next-auth sees it: an unknown action is 404 and a POST must
 * be a form its client would send (see checkAuthPost). Returns the request to hand to next-auth.
 */
export async function checkAuthRequest(req: Request, action: string | undefined): Promise<Request> {
  if (!action || !AUTH_ACTIONS.includes(action)) {
    throw new AppError("not_found", `No sign-in route ${new URL(req.url).pathname.slice(0, 200)}.`);
  }
  return req.method === "POST" ? checkAuthPost(req) : req;
}

/** Sign-in forms are a few hundred bytes; anything near this is not next-auth's client. */
const MAX_AUTH_BODY_BYTES = 16 * 1024;

/**
 * Checks a POST to next-auth before next-auth sees it: its client always sends a urlencoded form,
 * and next-auth answers 500 when a JSON content type carries something else. Returns a request
 * with the same (already read) body for next-auth; throws 400/413/415 in our error shape.
 */
async function checkAuthPost(req: Request): Promise<NextRequest> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new AppError("unsupported_media_type", "Send sign-in requests as application/x-www-form-urlencoded.");
  }
  const bytes = await readBodyCapped(req, MAX_AUTH_BODY_BYTES);
  let text: string;
  let fields: URLSearchParams;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    fields = new URLSearchParams(text);
    // URLSearchParams turns a bad escape into U+FFFD silently; a strict decode tells garbage apart.
    decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    throw new AppError("bad_request", "The sign-in form is not valid application/x-www-form-urlencoded.");
  }
  for (const [key, value] of fields) {
    if (key.includes("\u0000") || value.includes("\u0000")) {
      throw new AppError(
        "bad_request",
        `Form field "${key.replace(/\u0000/g, "").slice(0, 40)}": must not contain a NUL character.`,
      );
    }
  }
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  return new NextRequest(req.url, { method: req.method, headers, body: text });
}
