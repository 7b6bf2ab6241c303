import { AppError } from "@/common/errors";
import { assertCredentialHost } from "../../security/credential-hosts";
import type { RuntimeArgs } from "../runtime-types";
import { requesterOf } from "./openai-connection";

/** What an HTTP tool node's definition provides (requestsGet, requestsPost). */
type HttpToolArgs = Pick<RuntimeArgs, "ctx" | "label" | "nodeId"> & {
  params: { url: string; headersCredential?: string };
};

/**
 * The fixed URL, the credential's headers and the guarded fetch of an HTTP tool node: the fetch is
 * pinned to the URL's host and to `method` (private addresses only where the operator allows them,
 * redirects re-checked, size and time capped); the headers credential must allow that host.
 */
export async function httpToolTarget({ params, ctx, label, nodeId }: HttpToolArgs, method: "GET" | "POST") {
  const requester = requesterOf({ label, nodeId });
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw new AppError("invalid_graph", `${requester}: "${params.url}" is not a valid URL.`);
  }
  let headers: Record<string, string> = {};
  if (params.headersCredential) {
    const cred = await ctx.resolveCredential(params.headersCredential);
    assertCredentialHost(cred, url.href, requester);
    const given = cred.data.headers;
    if (given && typeof given === "object")
      headers = Object.fromEntries(
        Object.entries(given).filter((e): e is [string, string] => typeof e[1] === "string"),
      );
  }
  const fetch = ctx.fetchFor?.({ baseUrl: url.href, methods: [method] }) ?? ctx.fetch;
  return { url, headers, fetch };
}

/** The answer's text cut to `max`; a non-2xx answer is thrown (the agent reads it as "Tool error: …"). */
export async function readToolAnswer(res: Response, method: string, url: URL, max: number): Promise<string> {
  const text = await res.text();
  if (!res.ok)
    throw new Error(`${method} ${url.origin}${url.pathname} answered HTTP ${res.status}: ${text.trim().slice(0, 300)}`);
  return text.slice(0, max);
}
