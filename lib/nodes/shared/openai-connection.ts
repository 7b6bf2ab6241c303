import { AppError } from "@/common/errors";
import {
  assertCredentialHost,
  credentialText,
  PROVIDER_DEFAULT_URL,
  serverKeyHost,
} from "../../security/credential-hosts";
import type { ModelCaller } from "../../security/model-failure";
import type { ModelFetchOptions } from "../../security/outbound-policy";
import type { RuntimeArgs } from "../runtime-types";

/** Placeholder key for local servers (Ollama, llama.cpp) that need none; the SDK insists on one. */
const NO_KEY = "not-needed";

function hostOf(url: string, requester: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    throw new AppError("invalid_graph", `${requester}: the base URL "${url}" is not a valid URL.`);
  }
}

/** A model client's own timeout (an SDK's, OpenAIChat's): MODEL_TIMEOUT_MS is enforced by the model guard, this is only a backstop. */
export function sdkBackstopTimeout(env: RuntimeArgs["ctx"]["env"]): number {
  return (env.MODEL_TIMEOUT_MS ?? 60_000) + 5_000;
}

/** How a model node is named in errors: its label and its id on the canvas. */
export function requesterOf({ label, nodeId }: Pick<RuntimeArgs, "label" | "nodeId">): string {
  return `${label} (node ${nodeId})`;
}

/** A model node as a failure names it: "Chat model “Support bot”" (its id goes to the error's details). */
export function modelCallerOf(kind: string, { label, nodeId }: Pick<RuntimeArgs, "label" | "nodeId">): ModelCaller {
  return { kind, node: { id: nodeId, label } };
}

/** What an OpenAI-compatible node's definition provides (openAICredentialParam, openAIBaseUrlParam). */
type OpenAINodeArgs = Pick<RuntimeArgs, "ctx" | "label" | "nodeId"> & {
  params: { credential?: string; baseURL?: string; timeout?: number };
  /** What the node is, for failures: "Chat model", "Embeddings model". */
  kind: string;
};

/**
 * API key, base URL and the model guard's options (`guard`: for ctx.modelFetch or ctx.modelRequest) of
 * an OpenAI-compatible node. With a credential: its key, sent only
 * to the credential's host (its baseURL, or api.openai.com) — a node base URL naming another host
 * is refused. Without one: the server's OPENAI_API_KEY, only when the node's base URL is absent or
 * on OPENAI_BASE_URL's host (api.openai.com when unset); a node naming another server gets no key
 * (local servers such as Ollama need none). Throws `not_configured` when there is neither a key
 * nor a server to call.
 */
export async function resolveOpenAIConnection({ params, ctx, label, nodeId, kind }: OpenAINodeArgs) {
  const requester = requesterOf({ label, nodeId });
  const caller = modelCallerOf(kind, { label, nodeId });
  const nodeBase = params.baseURL || undefined;
  const timeout = sdkBackstopTimeout(ctx.env);
  if (params.credential) {
    const cred = await ctx.resolveCredential(params.credential);
    const apiKey = credentialText(cred, "apiKey");
    if (!apiKey) throw new AppError("not_configured", `${requester}: credential "${cred.name}" has no API key.`);
    const baseURL =
      nodeBase || credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL[cred.type] || PROVIDER_DEFAULT_URL.openai;
    const allowedHosts = assertCredentialHost(cred, baseURL, requester);
    const guard: ModelFetchOptions = { requester, caller, allowedHosts, timeoutMs: params.timeout };
    return { apiKey, timeout, baseURL, guard, credential: cred };
  }
  const serverHost = serverKeyHost(ctx.env.OPENAI_BASE_URL);
  const onServerHost = !nodeBase || hostOf(nodeBase, requester) === serverHost;
  const apiKey = onServerHost ? ctx.env.OPENAI_API_KEY : undefined;
  const baseURL = nodeBase || ctx.env.OPENAI_BASE_URL;
  if (!apiKey && !baseURL) {
    throw new AppError(
      "not_configured",
      `${label}: no API key. Choose an "openai" credential, set a base URL for a local server, or set OPENAI_API_KEY on the server.`,
    );
  }
  // The server's key is pinned to the server's host on every request too, redirects included.
  const authHint = onServerHost
    ? undefined
    : `No key was sent: the server's OPENAI_API_KEY only goes to ${serverHost}. Choose a credential for this server.`;
  const guard: ModelFetchOptions = {
    requester,
    caller,
    allowedHosts: apiKey ? [serverHost] : undefined,
    authHint,
    timeoutMs: params.timeout,
  };
  return { apiKey: apiKey || NO_KEY, timeout, baseURL: baseURL || undefined, guard };
}
