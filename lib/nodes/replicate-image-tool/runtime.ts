import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import type { RuntimeOf } from "../define";
import { requesterOf } from "../shared/openai-connection";
import type { replicateImageToolDefinition } from "./definition";

interface Prediction {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  urls?: { get?: string };
}

/** How long the create call asks Replicate to hold the answer (its most: 60 s). */
const WAIT_SECONDS = 60;
/** Between two reads of a prediction still running after the wait. */
const POLL_MS = 1000;

/** The image URLs of a prediction's output: one URL or a list of them (http(s) only). */
function imageUrls(output: unknown): string[] {
  const list = Array.isArray(output) ? output : [output];
  return list.filter((u): u is string => typeof u === "string" && /^https?:\/\//.test(u));
}

/** Why Replicate said no, in its words (`detail`), else the status. */
async function refusal(res: Response): Promise<string> {
  const body = (await res.json().catch(() => ({}))) as { detail?: unknown; title?: unknown };
  const said = typeof body.detail === "string" ? body.detail : typeof body.title === "string" ? body.title : "";
  if (res.status === 401 || res.status === 403) return `it refused the credential (HTTP ${res.status})`;
  if (res.status === 429) {
    const wait = res.headers.get("retry-after");
    return `it is rate limiting this token (HTTP 429)${wait ? `; retry after ${wait} s` : ""}`;
  }
  return `it answered HTTP ${res.status}${said ? `: ${said.slice(0, 300)}` : ""}`;
}

/**
 * A tool making images on Replicate: one prediction per call, created with `Prefer: wait` (the
 * finished prediction comes back in the answer when the model is quick), else read again until it
 * settles, within the node's timeout. The token goes only to the credential's host, through the
 * guarded fetch pinned to it; a failure fails the tool call naming Replicate, and the agent goes on.
 */
export const buildReplicateImageTool: RuntimeOf<typeof replicateImageToolDefinition> = async ({
  params,
  ctx,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const cred = await ctx.resolveCredential(params.credential);
  const token = credentialText(cred, "apiKey");
  if (!token) throw new AppError("not_configured", `${requester}: credential "${cred.name}" has no API token.`);
  const base = (credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL.replicate).replace(/\/+$/, "");
  assertCredentialHost(cred, base, requester);
  const fetch = ctx.fetchFor?.({ baseUrl: base, methods: ["GET", "POST"] }) ?? ctx.fetch;
  const [model, version] = params.model.split(":");
  const extra =
    params.additionalInputs && typeof params.additionalInputs === "object" && !Array.isArray(params.additionalInputs)
      ? (params.additionalInputs as Record<string, unknown>)
      : {};
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };

  return tool(
    async ({ prompt }, config) => {
      const deadline = AbortSignal.timeout(params.timeoutSeconds * 1000);
      const signal = config?.signal ? AbortSignal.any([config.signal, deadline]) : deadline;
      try {
        const input = { ...extra, prompt };
        const url = version ? `${base}/v1/predictions` : `${base}/v1/models/${model}/predictions`;
        const res = await fetch(url, {
          method: "POST",
          headers: { ...headers, prefer: `wait=${WAIT_SECONDS}` },
          body: JSON.stringify(version ? { version, input } : { input }),
          signal,
        });
        if (!res.ok) throw new Error(await refusal(res));
        let prediction = (await res.json()) as Prediction;
        while (prediction.status === "starting" || prediction.status === "processing") {
          const next = prediction.urls?.get;
          // Only a link on the credential's own host is followed with the token.
          if (!next?.startsWith(`${base}/`)) throw new Error("it gave no link to follow the running prediction");
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          signal.throwIfAborted();
          const poll = await fetch(next, { headers, signal });
          if (!poll.ok) throw new Error(await refusal(poll));
          prediction = (await poll.json()) as Prediction;
        }
        if (prediction.status !== "succeeded")
          throw new Error(
            `the prediction ${prediction.status ?? "failed"}${prediction.error ? `: ${String(prediction.error).slice(0, 300)}` : ""}`,
          );
        const urls = imageUrls(prediction.output);
        if (!urls.length) throw new Error("the prediction made no image");
        return JSON.stringify({ images: urls });
      } catch (err) {
        if (config?.signal?.aborted) throw err;
        const why = deadline.aborted
          ? `no image within ${params.timeoutSeconds} s`
          : (err instanceof Error ? err.message : String(err)).replaceAll(token, "***");
        throw new Error(`Replicate (${params.model}) image generation failed: ${why}`);
      }
    },
    {
      name: params.toolName,
      description: params.toolDescription,
      schema: z.object({ prompt: z.string().min(1).max(4000).describe("A detailed description of the image to make") }),
    },
  );
};
