import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import { AppError } from "../../errors";
import type { BuildContext } from "../../flow/types";
import type { NodeRuntime, RuntimeArgs } from "../runtime-types";
import type { ChatHistoryMemory } from "../shared/memory";
import { OpenApiChain } from "./chain";
import { parseOpenApiSpec, toToolDefinition } from "./spec";

/** A file param holds the file's text, or a data: URL of it (as browsers read uploads). */
function fileText(value: string): string {
  const m = /^data:[^,]*?(;base64)?,(.*)$/s.exec(value);
  if (!m) return value;
  return m[1] ? Buffer.from(m[2], "base64").toString("utf8") : decodeURIComponent(m[2]);
}

async function fetchSpec(ctx: BuildContext, url: string, label: string): Promise<string> {
  let res: Response;
  try {
    const pinned = ctx.fetchFor?.({ baseUrl: url, methods: ["GET"] }) ?? ctx.fetch;
    res = await pinned(url, { headers: { accept: "application/json, application/yaml, text/yaml, */*" }, signal: AbortSignal.timeout(15_000) });
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("upstream_unavailable", `${label}: the OpenAPI spec at ${url} could not be fetched.`, { cause: e });
  }
  if (!res.ok) throw new AppError("upstream_error", `${label}: fetching the OpenAPI spec at ${url} answered HTTP ${res.status}.`);
  return res.text();
}

async function specText({ params, ctx, label }: RuntimeArgs): Promise<{ text: string; baseUrl?: string }> {
  if (typeof params.spec === "string" && params.spec.trim()) return { text: params.spec };
  if (typeof params.file === "string" && params.file.trim()) return { text: fileText(params.file) };
  if (typeof params.specUrl === "string") return { text: await fetchSpec(ctx, params.specUrl, label), baseUrl: params.specUrl };
  throw new AppError("invalid_graph", `${label}: give the OpenAPI spec as text, as a file or as a URL.`);
}

function resolveServerUrl(specServer: string | undefined, override: unknown, baseUrl: string | undefined, label: string): string {
  const raw = typeof override === "string" && override ? override : specServer;
  if (!raw) throw new AppError("invalid_graph", `${label}: the spec declares no server; set "Server URL override".`);
  let url: URL;
  try {
    url = new URL(raw, baseUrl);
  } catch {
    throw new AppError("invalid_graph", `${label}: the server URL "${raw}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AppError("invalid_graph", `${label}: the server URL must use http or https.`);
  }
  return url.href.replace(/\/+$/, "");
}

/** Builds the OpenAPI chain: loads and parses the spec, binds one tool per operation to the model. */
export const buildOpenApiChain: NodeRuntime = async (args) => {
  const { params, inputs, ctx, label } = args;
  const model = inputs.model as BaseChatModel;
  const { text, baseUrl } = await specText(args);
  const spec = parseOpenApiSpec(text, label);
  const serverUrl = resolveServerUrl(spec.serverUrl, params.serverUrl, baseUrl, label);
  if (typeof model.bindTools !== "function") {
    throw new AppError("invalid_graph", `${label}: the connected chat model does not support tool calling.`);
  }
  const toolModel = model.bindTools(spec.operations.map(toToolDefinition)) as unknown as Runnable<BaseMessage[], AIMessage>;
  const headers = typeof params.headersCredential === "string" ? await ctx.resolveCredential(params.headersCredential) : {};
  return new OpenApiChain({
    model,
    toolModel,
    spec,
    serverUrl,
    headers,
    // Requests chosen by the model may only reach the spec's server, with the spec's methods.
    fetch: ctx.fetchFor?.({ baseUrl: serverUrl, methods: [...new Set(spec.operations.map((o) => o.method))] }) ?? ctx.fetch,
    timeoutMs: (params.timeoutSeconds as number) * 1000,
    memory: inputs.memory as ChatHistoryMemory | undefined,
  });
};
