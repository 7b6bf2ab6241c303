import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import type { RuntimeOf } from "../define";
import { modelCallerOf, requesterOf } from "../shared/openai-connection";
import { providerFailure, TextCompletionChat } from "../shared/text-completion-chat";
import type { huggingFaceInferenceDefinition } from "./definition";

/**
 * Hugging Face's text-generation task: POST {inputs, parameters} to the serverless Inference API
 * (router.huggingface.co/hf-inference/models/<model>) or to a dedicated Inference Endpoint; the
 * answer is [{generated_text}] without the prompt (return_full_text false). The token goes only to the
 * credential's host, through the guarded model fetch.
 */
export const buildHuggingFaceInference: RuntimeOf<typeof huggingFaceInferenceDefinition> = async ({
  params,
  ctx,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const cred = await ctx.resolveCredential(params.credential);
  const token = credentialText(cred, "apiKey");
  if (!token) throw new AppError("not_configured", `${requester}: credential "${cred.name}" has no access token.`);
  const base = (credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL.huggingFace).replace(/\/+$/, "");
  let url: string;
  if (params.endpoint) url = params.endpoint;
  else if (params.model)
    url = `${base}/hf-inference/models/${params.model.split("/").map(encodeURIComponent).join("/")}`;
  else throw new AppError("invalid_graph", `${requester}: name a model or an Inference Endpoint URL.`);
  const allowedHosts = assertCredentialHost(cred, url, requester);
  const fetch =
    ctx.modelFetch?.({ requester, caller: modelCallerOf("Chat model", { label, nodeId }), allowedHosts }) ?? ctx.fetch;
  const provider = `Hugging Face (${params.model || new URL(url).host})`;
  return new TextCompletionChat("huggingface", async (prompt, signal) => {
    const parameters = {
      temperature: params.temperature || undefined,
      return_full_text: false,
      ...(params.maxTokens ? { max_new_tokens: params.maxTokens } : {}),
      ...(params.topP === undefined ? {} : { top_p: params.topP }),
      ...(params.topK === undefined ? {} : { top_k: params.topK }),
      ...(params.repetitionPenalty === undefined ? {} : { repetition_penalty: params.repetitionPenalty }),
    };
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ inputs: prompt, parameters }),
      signal,
    });
    if (!res.ok) throw await providerFailure(provider, res);
    const json = (await res.json()) as unknown;
    const first = Array.isArray(json) ? json[0] : json;
    const text =
      first && typeof first === "object" ? (first as { generated_text?: unknown }).generated_text : undefined;
    if (typeof text !== "string") throw new AppError("upstream_error", `${provider} answered without generated_text.`);
    return text;
  });
};
