import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { AppError } from "../../errors";
import { assertCredentialHost } from "../../security/credential-hosts";
import type { RuntimeOf } from "../define";
import { requesterOf } from "../shared/openai-connection";
import type { requestsGetDefinition } from "./definition";

/** The node's URL, checked once at build time (the form's pattern only checks the scheme). */
function parseUrl(url: string, requester: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new AppError("invalid_graph", `${requester}: "${url}" is not a valid URL.`);
  }
}

/**
 * A GET tool over one fixed URL. The agent only adds query parameters; the host, path and method
 * are the builder's. Requests go through the guarded fetch pinned to the URL's host (private
 * addresses only where the operator allows them, redirects re-checked, size and time capped).
 * A failure (refused, unreachable, non-2xx) is thrown: the agent reads it as "Tool error: …".
 */
export const buildRequestsGet: RuntimeOf<typeof requestsGetDefinition> = async ({ params, ctx, label, nodeId }) => {
  const requester = requesterOf({ label, nodeId });
  const base = parseUrl(params.url, requester);
  let headers: Record<string, string> = {};
  if (params.headersCredential) {
    const cred = await ctx.resolveCredential(params.headersCredential);
    assertCredentialHost(cred, base.href, requester);
    const given = cred.data.headers;
    if (given && typeof given === "object")
      headers = Object.fromEntries(
        Object.entries(given).filter((e): e is [string, string] => typeof e[1] === "string"),
      );
  }
  const fetchPinned = ctx.fetchFor?.({ baseUrl: base.href, methods: ["GET"] }) ?? ctx.fetch;
  return tool(
    async ({ queryParams }, config) => {
      const url = new URL(base);
      for (const [key, value] of Object.entries(queryParams ?? {})) url.searchParams.append(key, String(value));
      const res = await fetchPinned(url, { headers, signal: config?.signal });
      const text = await res.text();
      if (!res.ok)
        throw new Error(`GET ${url.origin}${url.pathname} answered HTTP ${res.status}: ${text.trim().slice(0, 300)}`);
      return text.slice(0, params.maxOutputLength);
    },
    {
      name: params.name,
      description: params.description,
      schema: z.object({
        queryParams: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
          .optional()
          .describe("Optional query parameters to add to the request URL"),
      }),
    },
  );
};
