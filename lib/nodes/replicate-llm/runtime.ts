import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import type { RuntimeOf } from "../define";
import { modelCallerOf, requesterOf } from "../shared/openai-connection";
import { providerFailure, TextCompletionChat } from "../shared/text-completion-chat";
import type { replicateLLMDefinition } from "./definition";

interface Prediction {
  status?: string;
  output?: unknown;
  error?: unknown;
  urls?: { get?: string };
}

/** A prediction's text: Replicate's language models answer a list of pieces, some a string. */
const outputText = (output: unknown): string =>
  Array.isArray(output) ? output.map(String).join("") : typeof output === "string" ? output : "";

/**
 * Replicate's predictions API: POST the input with `Prefer: wait` (the answer comes in the response
 * when the model finishes within a minute), else poll the prediction until it settles, within the
 * model deadline (MODEL_TIMEOUT_MS, through the guarded model fetch). owner/name runs the model's
 * current version; owner/name:version a pinned one. The token goes only to the credential's host.
 */
export const buildReplicateLLM: RuntimeOf<typeof replicateLLMDefinition> = async ({ params, ctx, label, nodeId }) => {
  const requester = requesterOf({ label, nodeId });
  const cred = await ctx.resolveCredential(params.credential);
  const token = credentialText(cred, "apiKey");
  if (!token) throw new AppError("not_configured", `${requester}: credential "${cred.name}" has no API token.`);
  const base = (credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL.replicate).replace(/\/+$/, "");
  const allowedHosts = assertCredentialHost(cred, base, requester);
  const fetch =
    ctx.modelFetch?.({ requester, caller: modelCallerOf("Chat model", { label, nodeId }), allowedHosts }) ?? ctx.fetch;
  const [model, version] = params.model.split(":");
  const extra =
    params.additionalInputs && typeof params.additionalInputs === "object" && !Array.isArray(params.additionalInputs)
      ? params.additionalInputs
      : {};
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const provider = `Replicate (${params.model})`;
  return new TextCompletionChat("replicate", async (prompt, signal) => {
    const input = {
      ...extra,
      prompt,
      temperature: params.temperature,
      ...(params.maxTokens ? { max_new_tokens: params.maxTokens, max_tokens: params.maxTokens } : {}),
      ...(params.topP === undefined ? {} : { top_p: params.topP }),
      ...(params.repetitionPenalty === undefined ? {} : { repetition_penalty: params.repetitionPenalty }),
    };
    const url = version ? `${base}/v1/predictions` : `${base}/v1/models/${model}/predictions`;
    const res = await fetch(url, {
      method: "POST",
      headers: { ...headers, prefer: "wait" },
      body: JSON.stringify(version ? { version, input } : { input }),
      signal,
    });
    if (!res.ok) throw await providerFailure(provider, res);
    let prediction = (await res.json()) as Prediction;
    // Still running after the wait: follow the prediction (the guarded fetch's deadline bounds it).
    while (prediction.status === "starting" || prediction.status === "processing") {
      const next = prediction.urls?.get;
      if (!next?.startsWith(`${base}/`))
        throw new AppError("upstream_error", `${provider} gave no link to follow its running prediction.`);
      await new Promise((r) => setTimeout(r, 500));
      signal?.throwIfAborted();
      const poll = await fetch(next, { headers, signal });
      if (!poll.ok) throw await providerFailure(provider, poll);
      prediction = (await poll.json()) as Prediction;
    }
    if (prediction.status !== "succeeded")
      throw new AppError(
        "upstream_error",
        `${provider} ${prediction.status ?? "failed"}${prediction.error ? `: ${String(prediction.error).slice(0, 300)}` : ""}.`,
      );
    return outputText(prediction.output);
  });
};
