import { tool } from "@langchain/core/tools";
import { z } from "zod";
import type { RuntimeOf } from "../define";
import { httpToolTarget, readToolAnswer } from "../shared/http-tool";
import type { requestsGetDefinition } from "./definition";

/**
 * A GET tool over one fixed URL. The agent only adds query parameters; the host, path and method
 * are the builder's. Requests go through the guarded fetch pinned to the URL's host (private
 * addresses only where the operator allows them, redirects re-checked, size and time capped).
 * A failure (refused, unreachable, non-2xx) is thrown: the agent reads it as "Tool error: …".
 */
export const buildRequestsGet: RuntimeOf<typeof requestsGetDefinition> = async (args) => {
  const { params } = args;
  const target = await httpToolTarget(args, "GET");
  return tool(
    async ({ queryParams }, config) => {
      const url = new URL(target.url);
      for (const [key, value] of Object.entries(queryParams ?? {})) url.searchParams.append(key, String(value));
      const res = await target.fetch(url, { headers: target.headers, signal: config?.signal });
      return readToolAnswer(res, "GET", url, params.maxOutputLength);
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
