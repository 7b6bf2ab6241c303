/**
 * Where a stored credential may be sent. A provider key goes only to the host of the credential's
 * base URL (or the provider's own host when it has none); request headers only to the hosts the
 * credential lists. A node that would send a credential anywhere else is refused before any request,
 * so a flow's editor cannot point someone's key at a server they control.
 */
import { AppError } from "@/common/errors";
import { hostListed } from "./outbound";
import { PROVIDER_KINDS } from "@/common/providers/catalogue";

/** A credential as the flow engine receives it: its name (for messages), kind and decrypted fields. */
export interface ResolvedCredential {
  name: string;
  type: string;
  data: Record<string, unknown>;
}

/** The provider's own URL, where a key without a base URL goes (common/providers/catalogue.ts). */
export const PROVIDER_DEFAULT_URL: Record<string, string> = Object.fromEntries(
  Object.entries(PROVIDER_KINDS).flatMap(([id, kind]) => ("defaultUrl" in kind ? [[id, kind.defaultUrl]] : [])),
);

/**
 * The only host the server's own OPENAI_API_KEY is sent to: OPENAI_BASE_URL's (api.openai.com when
 * unset). A node or speech setting naming another server is called without it.
 */
export function serverKeyHost(openaiBaseUrl: string | undefined): string {
  return new URL(openaiBaseUrl || PROVIDER_DEFAULT_URL.openai).host.toLowerCase();
}

/**
 * Where a credential's key goes when it names no base URL: the provider's own URL, its `{field}`s
 * filled from the credential (AWS's `{region}`, which the credential schema allows only as a region
 * name); "" when the provider has none or a field is missing.
 */
export function providerDefaultUrl(cred: ResolvedCredential): string {
  const template = PROVIDER_DEFAULT_URL[cred.type] ?? "";
  let missing = false;
  const url = template.replace(/\{(\w+)\}/g, (_, field: string) => {
    const value = credentialText(cred, field);
    if (!/^[a-z0-9-]+$/.test(value)) missing = true;
    return value;
  });
  return missing ? "" : url;
}

/** A text field of a credential ("apiKey", "baseURL"), or "" when it has none. */
export function credentialText(cred: ResolvedCredential, field: string): string {
  const value = cred.data[field];
  return typeof value === "string" ? value : "";
}

/** The hosts ("host" or "host:port") this credential may be sent to; empty when it names none. */
export function credentialHosts(cred: ResolvedCredential): string[] {
  if (cred.type === "httpHeaders") {
    const hosts = cred.data.allowedHosts;
    return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === "string") : [];
  }
  const base = credentialText(cred, "baseURL") || providerDefaultUrl(cred);
  try {
    return base ? [new URL(base).host.toLowerCase()] : [];
  } catch {
    return [];
  }
}

/**
 * Throws AppError forbidden unless `target` is a host the credential may be sent to. Returns the
 * credential's hosts, for the guarded fetch's allowedHosts (checked again on every request).
 */
export function assertCredentialHost(cred: ResolvedCredential, target: string, requester: string): string[] {
  const hosts = credentialHosts(cred);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new AppError("invalid_graph", `${requester}: "${target}" is not a valid URL.`);
  }
  if (hosts.length === 0) {
    throw new AppError(
      "forbidden",
      `${requester}: credential "${cred.name}" lists no hosts it may be sent to; edit it and add them (allowedHosts).`,
    );
  }
  if (!hostListed(hosts, url)) {
    throw new AppError(
      "forbidden",
      `${requester}: credential "${cred.name}" may only be sent to ${hosts.join(", ")}, not to ${url.host}.`,
    );
  }
  return hosts;
}
