import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import { requesterOf } from "../shared/openai-connection";
import { httpToolTarget, readToolAnswer } from "../shared/http-tool";
import type { requestsPostDefinition } from "./definition";

/**
 * A POST tool over one fixed URL: the agent gives the JSON body, the builder's fixed fields are
 * laid over it. Same guard as Requests Get (pinned host, POST only); failures become tool errors.
 */
export const buildRequestsPost: RuntimeOf<typeof requestsPostDefinition> = async (args) => {
  const { params } = args;
  const fixed = params.body;
  if (fixed !== undefined && Array.isArray(fixed))
    throw new AppError("invalid_graph", `${requesterOf(args)}: the fixed body fields must be a JSON object.`);
  const target = await httpToolTarget(args, "POST");
  return tool(
    async ({ body }, config) => {
      const res = await target.fetch(target.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...target.headers },
        body: JSON.stringify({ ...(body ?? {}), ...(fixed ?? {}) }),
        signal: config?.signal,
      });
      return readToolAnswer(res, "POST", target.url, params.maxOutputLength);
    },
    {
      name: params.name,
      description: params.description,
      schema: z.object({
        body: z.record(z.string(), z.unknown()).optional().describe("The JSON object to send as the request body"),
      }),
    },
  );
};
