import type { Caller } from "@/common/access/callers";
import { ListAsyncInvokesCommand } from "@aws-sdk/client-bedrock-runtime";
import { AZURE_DEFAULT_API_VERSION } from "@/common/providers/catalogue";
import {
  credentialHosts,
  credentialText,
  PROVIDER_DEFAULT_URL,
  type ResolvedCredential,
} from "../security/credential-hosts";
import { bedrockEndpoint, createBedrockClient } from "../nodes/chat-bedrock/bedrock-client";
import { createGuardedFetch } from "../security/outbound";
import { operatorPolicy } from "../security/outbound-policy";
import { manageableCredentialValues } from "./credentials";

/** What a connection test found: the provider took the key (ok), or why not, in words and status. */
export interface CredentialTestResult {
  ok: boolean;
  /** The host called. */
  host?: string;
  /** The provider's HTTP status, when it answered. */
  status?: number;
  message: string;
}

interface Probe {
  url: string;
  method?: "GET";
  headers: Record<string, string>;
}

const base = (cred: ResolvedCredential) =>
  (credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL[cred.type] || "").replace(/\/+$/, "");

/**
 * One cheap call per kind that needs the key and costs nothing: listing models, the account, the
 * indexes. Kinds whose only calls are billed (web searches) or go anywhere (API headers) have none.
 */
function probeFor(cred: ResolvedCredential): Probe | string {
  const key = credentialText(cred, "apiKey");
  const bearer = { authorization: `Bearer ${key}` };
  switch (cred.type) {
    case "openai":
    case "mistralAI":
    case "groq":
    case "deepseek":
    case "openRouter":
    case "togetherAI":
      return { url: `${base(cred)}/models`, headers: bearer };
    case "anthropic":
      return {
        url: `${base(cred)}/v1/models?limit=1`,
        headers: { "x-api-key": key, "anthropic-version": "2023-06-01" },
      };
    case "googleGenerativeAI":
      return { url: `${base(cred)}/v1beta/models?pageSize=1`, headers: { "x-goog-api-key": key } };
    case "azureOpenAI": {
      const version = credentialText(cred, "apiVersion") || AZURE_DEFAULT_API_VERSION;
      return {
        url: `${base(cred)}/openai/models?api-version=${encodeURIComponent(version)}`,
        headers: { "api-key": key },
      };
    }
    case "pinecone":
      return { url: `${base(cred)}/indexes`, headers: { "api-key": key, "x-pinecone-api-version": "2025-04" } };
    case "github":
      return { url: `${base(cred)}/rate_limit`, headers: { ...bearer, accept: "application/vnd.github+json" } };
    case "replicate":
      return { url: `${base(cred)}/v1/account`, headers: bearer };
    case "serpApi":
      return { url: `${base(cred)}/account.json?api_key=${encodeURIComponent(key)}`, headers: {} };
    default:
      return `A ${cred.type} credential has no free call to test it with: it is checked on its first use.`;
  }
}

/**
 * Tests a credential the caller may manage with one call to its provider, through the outbound guard
 * pinned to the credential's own host, within 10 seconds. The key is never in the answer.
 */
export async function testCredential(id: string, caller: Caller): Promise<CredentialTestResult> {
  const cred = await manageableCredentialValues(id, caller);
  if (cred.type === "awsBedrock") return testBedrockKeys(cred);
  const probe = probeFor(cred);
  if (typeof probe === "string") return { ok: false, message: probe };
  const url = new URL(probe.url);
  const fetch = createGuardedFetch({
    ...operatorPolicy(),
    allowedHosts: credentialHosts(cred),
    allowedMethods: ["GET"],
    timeoutMs: 10_000,
    requester: `Credential "${cred.name}"`,
  });
  const mask = (text: string) => {
    const key = credentialText(cred, "apiKey");
    return key ? text.replaceAll(key, "***") : text;
  };
  let res: Response;
  try {
    res = await fetch(url, { headers: probe.headers });
  } catch (err) {
    return { ok: false, host: url.host, message: mask(err instanceof Error ? err.message : String(err)) };
  }
  await res.body?.cancel().catch(() => undefined);
  if (res.ok) return { ok: true, host: url.host, status: res.status, message: `${url.host} accepted the credential.` };
  const why =
    res.status === 401 || res.status === 403
      ? "refused the credential"
      : res.status === 429
        ? "accepted the request but is rate limiting this key"
        : `answered HTTP ${res.status}`;
  return { ok: res.status === 429, host: url.host, status: res.status, message: `${url.host} ${why}.` };
}

/**
 * AWS keys are tested with a signed call that runs no model and costs nothing: Bedrock Runtime's
 * ListAsyncInvokes (one result), through the same guard. AccessDenied means AWS took the signature
 * (the keys are real) but the key may not list async jobs, which says nothing of model calls.
 */
async function testBedrockKeys(cred: ResolvedCredential): Promise<CredentialTestResult> {
  const requester = `Credential "${cred.name}"`;
  let host: string | undefined;
  try {
    host = new URL(bedrockEndpoint(cred)).host;
    const fetch = createGuardedFetch({
      ...operatorPolicy(),
      allowedHosts: credentialHosts(cred),
      allowedMethods: ["GET"],
      timeoutMs: 10_000,
      requester,
    });
    await createBedrockClient(cred, fetch, requester).send(new ListAsyncInvokesCommand({ maxResults: 1 }));
    return { ok: true, host, status: 200, message: `${host} accepted the credential.` };
  } catch (err) {
    const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    const status = e.$metadata?.httpStatusCode;
    const at = host ?? "AWS";
    if (e.name === "AccessDeniedException")
      return {
        ok: true,
        host,
        status,
        message: `${at} accepted the keys; they may not list async invocations (bedrock:ListAsyncInvokes, the call the test makes), which says nothing of model calls.`,
      };
    if (status === 401 || status === 403)
      return { ok: false, host, status, message: `${at} refused the credential (${e.name}).` };
    if (status === 429)
      return { ok: true, host, status, message: `${at} accepted the request but is rate limiting this key.` };
    if (status) return { ok: false, host, status, message: `${at} answered HTTP ${status} (${e.name}).` };
    const said = e.message ?? String(err);
    const secret = credentialText(cred, "apiKey");
    return { ok: false, host, message: secret ? said.replaceAll(secret, "***") : said };
  }
}
