import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import { AppError } from "@/common/errors";
import { parseDataUrl } from "@/common/files/data-url";
import { assertCredentialHost } from "../../security/credential-hosts";
import { type GuardedRequest, requestOverFetch } from "../../security/outbound";
import type { BuildContext } from "../../flow/types";
import type { RuntimeOf } from "../define";
import type { openApiChainDefinition } from "./definition";
import { requesterOf } from "../shared/openai-connection";
import { OpenApiChain } from "./chain";
import { parseOpenApiSpec, toToolDefinition } from "./spec";

/** What loading a spec needs of a node's args (the OpenAPI chain's, and the OpenAPI toolkit's, which share these params). */
export interface SpecNodeArgs {
  params: { spec?: string; file?: string; specUrl?: string; serverUrl?: string; headersCredential?: string };
  ctx: BuildContext;
  label: string;
  nodeId: string;
}

/** A file param holds the file's text, or a data: URL of it (as browsers read uploads). */
function fileText(value: string): string {
  const url = parseDataUrl(value);
  if (!url) return value;
  return url.base64 ? Buffer.from(url.data, "base64").toString("utf8") : decodeURIComponent(url.data);
}

/** The guard pinned to the API's server and methods; a context without one gets its fetch in that shape. */
export function pinnedRequest(ctx: BuildContext, baseUrl: string, methods: string[]): GuardedRequest {
  return ctx.requestFor?.({ baseUrl, methods }) ?? requestOverFetch(ctx.fetchFor?.({ baseUrl, methods }) ?? ctx.fetch);
}

async function fetchSpec(ctx: BuildContext, url: string, label: string): Promise<string> {
  let res: Response;
  try {
    const pinned = ctx.fetchFor?.({ baseUrl: url, methods: ["GET"] }) ?? ctx.fetch;
    res = await pinned(url, {
      headers: { accept: "application/json, application/yaml, text/yaml, */*" },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("upstream_unavailable", `${label}: the OpenAPI spec at ${url} could not be fetched.`, {
      cause: e,
    });
  }
  if (!res.ok)
    throw new AppError("upstream_error", `${label}: fetching the OpenAPI spec at ${url} answered HTTP ${res.status}.`);
  return res.text();
}

export interface SpecSource {
  text: string;
  /** The URL the spec was fetched from; absent when it was pasted or uploaded into the node. */
  fetchedFrom?: string;
}

export async function specText({ params, ctx, label }: SpecNodeArgs): Promise<SpecSource> {
  if (typeof params.spec === "string" && params.spec.trim()) return { text: params.spec };
  if (typeof params.file === "string" && params.file.trim()) return { text: fileText(params.file) };
  if (typeof params.specUrl === "string")
    return { text: await fetchSpec(ctx, params.specUrl, label), fetchedFrom: params.specUrl };
  throw new AppError("invalid_graph", `${label}: give the OpenAPI spec as text, as a file or as a URL.`);
}

function parseServerUrl(raw: string, base: string | undefined, label: string): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new AppError("invalid_graph", `${label}: the server URL "${raw}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AppError("invalid_graph", `${label}: the server URL must use http or https.`);
  }
  return url;
}

/**
 * The server the chain calls: the node's "Server URL override", else the spec's first server. A
 * spec pasted or uploaded into the node is the builder's own choice, so its server is used as is.
 * A fetched spec is someone else's document: its server is used only on the host the spec came
 * from, so a spec cannot send the chain (and the node's headers) to another host. Either way,
 * private addresses still need the operator's allowance (OUTBOUND_ALLOW_HOSTS), checked per request.
 */
export function resolveServerUrl(
  specServer: string | undefined,
  override: unknown,
  source: SpecSource,
  label: string,
): string {
  if (typeof override === "string" && override)
    return parseServerUrl(override, undefined, label).href.replace(/\/+$/, "");
  if (!specServer)
    throw new AppError("invalid_graph", `${label}: the spec declares no server; set "Server URL override".`);
  const url = parseServerUrl(specServer, source.fetchedFrom, label);
  if (source.fetchedFrom && url.host !== new URL(source.fetchedFrom).host) {
    throw new AppError(
      "invalid_graph",
      `${label}: the spec fetched from ${new URL(source.fetchedFrom).host} declares a server on another host (${url.host}); ` +
        `a fetched spec's servers are not trusted. Set "Server URL override", or paste or upload the spec.`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

/** The request headers of the node's credential, refused unless the credential may go to serverUrl. */
export async function headersFor(args: SpecNodeArgs, serverUrl: string): Promise<Record<string, string>> {
  const id = args.params.headersCredential;
  if (typeof id !== "string" || !id) return {};
  const cred = await args.ctx.resolveCredential(id);
  assertCredentialHost(cred, serverUrl, requesterOf(args));
  const headers = cred.data.headers;
  if (!headers || typeof headers !== "object") return {};
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/** Builds the OpenAPI chain: loads and parses the spec, binds one tool per operation to the model. */
export const buildOpenApiChain: RuntimeOf<typeof openApiChainDefinition> = async (args) => {
  const { params, inputs, ctx, label } = args;
  const { model } = inputs;
  const source = await specText(args);
  const spec = parseOpenApiSpec(source.text, label);
  const serverUrl = resolveServerUrl(spec.serverUrl, params.serverUrl, source, label);
  if (typeof model.bindTools !== "function") {
    throw new AppError("invalid_graph", `${label}: the connected chat model does not support tool calling.`);
  }
  const toolModel = model.bindTools(spec.operations.map(toToolDefinition)) as unknown as Runnable<
    BaseMessage[],
    AIMessage
  >;
  const headers = await headersFor(args, serverUrl);
  return new OpenApiChain({
    model,
    toolModel,
    spec,
    serverUrl,
    headers,
    // Requests chosen by the model may only reach the spec's server, with the spec's methods.
    send: pinnedRequest(ctx, serverUrl, [...new Set(spec.operations.map((o) => o.method))]),
    timeoutMs: params.timeoutSeconds * 1000,
    memory: inputs.memory,
  });
};
