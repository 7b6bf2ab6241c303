import http from "node:http";
import type { GuardedRequest } from "../security/outbound";
import type { SandboxFetch } from "./types";

/**
 * The `fetch` capability of user code over the outbound guard (`createGuardedRequest`, made by the
 * node with its requester name and allowed hosts): the guard's address policy, redirects, size cap
 * and deadline apply to every call, and its refusal reaches the code as a rejected fetch naming the
 * reason. The body is read whole, as UTF-8 text; header names are lower-cased.
 */
export function sandboxFetchOver(request: GuardedRequest): SandboxFetch {
  return async ({ url, method, headers, body }) => {
    const answer = await request(url, { method, headers, body });
    const text = (await answer.bytes()).toString("utf8");
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    return {
      url: answer.url.toString(),
      status: answer.status,
      statusText: http.STATUS_CODES[answer.status] ?? "",
      headers: flat,
      body: text,
    };
  };
}
