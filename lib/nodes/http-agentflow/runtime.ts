import { AppError } from "@/common/errors";
import { callOnce } from "../../agentflow/journal";
import type { AgentflowStep, StepContext } from "../../agentflow/types";
import { assertCredentialHost, type ResolvedCredential } from "../../security/credential-hosts";
import type { ParamsOf, RuntimeOf } from "../define";
import { listItems, stateUpdates } from "../shared/agentflow";
import type { httpAgentflowDefinition } from "./definition";

type Params = ParamsOf<typeof httpAgentflowDefinition>;

/** The most characters of an answer kept as the node's output. */
const MAX_ANSWER_CHARS = 100_000;

/** A finished request as the journal keeps it. */
interface StoredAnswer {
  status: number;
  statusText: string;
  data: unknown;
}

function pairs(list: unknown, ctx: StepContext): [string, string][] {
  return listItems(list)
    .filter((i) => typeof i.key === "string" && i.key !== "")
    .map((i) => [i.key as string, ctx.resolve(String(i.value ?? ""))]);
}

function fail(ctx: StepContext, code: "unprocessable" | "upstream_error", message: string): AppError {
  return new AppError(code, `HTTP "${ctx.label}" (${ctx.nodeId}): ${message}`);
}

function target(params: Params, ctx: StepContext): URL {
  const raw = ctx.resolve(params.url).trim();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail(ctx, "unprocessable", `"${raw}" is not a URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw fail(ctx, "unprocessable", `only http and https URLs are allowed, not ${url.protocol}`);
  for (const [k, v] of pairs(params.queryParams, ctx)) url.searchParams.append(k, v);
  return url;
}

function parseJsonBody(text: string, ctx: StepContext): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw fail(ctx, "unprocessable", `the body is not JSON (${(e as Error).message}).`);
  }
}

function requestBody(params: Params, ctx: StepContext, headers: Record<string, string>): string | undefined {
  if (params.method === "GET" || !params.body?.trim()) return undefined;
  const text = ctx.resolve(params.body);
  if (params.bodyType === "raw") return text;
  const value = parseJsonBody(text, ctx);
  if (params.bodyType === "json") {
    headers["content-type"] = "application/json";
    return JSON.stringify(value);
  }
  headers["content-type"] = "application/x-www-form-urlencoded";
  const entries = value && typeof value === "object" ? Object.entries(value) : [];
  return new URLSearchParams(entries.map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])).toString();
}

function credentialHeaders(cred: ResolvedCredential | undefined, url: URL, ctx: StepContext): Record<string, string> {
  if (!cred) return {};
  assertCredentialHost(cred, url.href, `HTTP "${ctx.label}" (${ctx.nodeId})`);
  const given = cred.data.headers;
  if (!given || typeof given !== "object") return {};
  return Object.fromEntries(Object.entries(given).filter((e): e is [string, string] => typeof e[1] === "string"));
}

/**
 * HTTP: the request built from the resolved params, sent through the guarded fetch pinned to the
 * URL's host and the method (private addresses refused, 403, unless the operator allows them); sent
 * at most once per run (callOnce), so a continued run does not send it again.
 */
export const buildHttpStep: RuntimeOf<typeof httpAgentflowDefinition> = async ({ params, ctx: build }) => {
  const cred = params.credential ? await build.resolveCredential(params.credential) : undefined;
  const send = async (ctx: StepContext, url: URL): Promise<StoredAnswer> => {
    const headers: Record<string, string> = Object.fromEntries(pairs(params.headers, ctx));
    const body = requestBody(params, ctx, headers);
    Object.assign(headers, credentialHeaders(cred, url, ctx));
    const fetch = build.fetchFor?.({ baseUrl: url.href, methods: [params.method] }) ?? build.fetch;
    const res = await fetch(url, { method: params.method, headers, body, signal: ctx.signal });
    const text = (await res.text()).slice(0, MAX_ANSWER_CHARS);
    if (!res.ok)
      throw fail(
        ctx,
        "upstream_error",
        `${params.method} ${url.origin}${url.pathname} answered HTTP ${res.status}: ${text.trim().slice(0, 300)}`,
      );
    let data: unknown = text;
    if (params.responseType === "json") {
      try {
        data = JSON.parse(text);
      } catch {
        // Not JSON after all: kept as text.
      }
    }
    return { status: res.status, statusText: res.statusText, data };
  };
  const step: AgentflowStep = {
    agentflowStep: true,
    async run(ctx) {
      const url = target(params, ctx);
      const answer = await callOnce(ctx, "http", `its request ${params.method} ${url.origin}${url.pathname}`, () =>
        send(ctx, url),
      );
      const content = typeof answer.data === "string" ? answer.data : JSON.stringify(answer.data);
      ctx.onToken?.(content);
      const output = { content, ...answer };
      const state = stateUpdates(params.httpUpdateState, ctx, output);
      return { input: { http: { method: params.method, url: url.href } }, output, ...(state ? { state } : {}) };
    },
  };
  return step;
};
