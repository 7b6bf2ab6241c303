import { AppError } from "@/common/errors";
import type { RuntimeOf } from "../define";
import type { FlowModeration } from "../shared/moderation";
import { requesterOf, resolveOpenAIConnection } from "../shared/openai-connection";
import type { inputModerationOpenAIDefinition } from "./definition";

/** OpenAI's moderation endpoint (`POST {baseURL}/moderations`): a flagged input gets the node's answer. */
export const buildInputModerationOpenAI: RuntimeOf<typeof inputModerationOpenAIDefinition> = async (
  args,
): Promise<FlowModeration> => {
  const { params, ctx } = args;
  const requester = requesterOf(args);
  const conn = await resolveOpenAIConnection({ ...args, kind: "Moderation" });
  const send = ctx.modelFetch?.(conn.guard) ?? ctx.fetch;
  const url = `${(conn.baseURL ?? "https://api.openai.com/v1").replace(/\/+$/, "")}/moderations`;
  return {
    async check(input, config) {
      const res = await send(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${conn.apiKey}` },
        body: JSON.stringify({ model: params.model, input }),
        signal: config.signal,
      });
      const body = (await res.json().catch(() => undefined)) as { results?: { flagged?: unknown }[] } | undefined;
      const flagged = body?.results?.[0]?.flagged;
      if (!res.ok || typeof flagged !== "boolean")
        throw new AppError(
          "upstream_error",
          `${requester}: the moderation endpoint answered ${res.ok ? "without a verdict" : `HTTP ${res.status}`}.`,
        );
      return flagged ? params.moderationErrorMessage : undefined;
    },
  };
};
