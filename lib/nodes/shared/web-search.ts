import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { AppError } from "@/common/errors";
import { T, type NodeDefinitionSpec } from "@/common/nodes/types";
import { PROVIDER_KINDS, type ProviderKindId } from "@/common/providers/catalogue";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import type { RuntimeOf } from "../define";
import { requesterOf } from "./openai-connection";

/** One search result as every provider's answer is read into. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** What a provider answered: its hits and, where it gives one, a direct answer. */
export interface SearchAnswer {
  answer?: string;
  hits: SearchHit[];
}

/** The HTTP request one search makes (the key goes in a header or, for SerpAPI and Google, the query). */
interface SearchRequest {
  url: URL;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** How one search API is called and read: its request from the query, and its answer's hits. */
export interface SearchApi {
  /** The credential kind holding its key (none: SearXNG, a server the builder names). */
  credentialType?: ProviderKindId;
  request(query: string, count: number, base: string, key: Record<string, string>): SearchRequest;
  read(json: unknown): SearchAnswer;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");
const list = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === "object") : [];
const field = (v: unknown, key: string): unknown =>
  v && typeof v === "object" ? (v as Record<string, unknown>)[key] : undefined;
const join = (base: string, path: string) => new URL(path.replace(/^\//, ""), base.endsWith("/") ? base : `${base}/`);

/** Each API's wire, from its public reference: paths, where the key goes, where the results are. */
export const SEARCH_APIS = {
  serpApi: {
    credentialType: "serpApi",
    request(q, count, base, key) {
      const url = join(base, "search.json");
      url.search = new URLSearchParams({ engine: "google", q, num: String(count), api_key: key.apiKey }).toString();
      return { url, method: "GET", headers: { accept: "application/json" } };
    },
    read(json) {
      const box = field(json, "answer_box");
      return {
        answer: text(field(box, "answer")) || text(field(box, "snippet")) || undefined,
        hits: list(field(json, "organic_results")).map((r) => ({
          title: text(r.title),
          url: text(r.link),
          snippet: text(r.snippet),
        })),
      };
    },
  },
  serper: {
    credentialType: "serper",
    request(q, count, base, key) {
      return {
        url: join(base, "search"),
        method: "POST",
        headers: { "x-api-key": key.apiKey, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ q, num: count }),
      };
    },
    read(json) {
      const box = field(json, "answerBox");
      return {
        answer: text(field(box, "answer")) || text(field(box, "snippet")) || undefined,
        hits: list(field(json, "organic")).map((r) => ({
          title: text(r.title),
          url: text(r.link),
          snippet: text(r.snippet),
        })),
      };
    },
  },
  googleCustomSearch: {
    credentialType: "googleCustomSearch",
    request(q, count, base, key) {
      const url = join(base, "customsearch/v1");
      // The API gives at most 10 results a page.
      const num = String(Math.min(count, 10));
      url.search = new URLSearchParams({ key: key.apiKey, cx: key.searchEngineId, q, num }).toString();
      return { url, method: "GET", headers: { accept: "application/json" } };
    },
    read(json) {
      return {
        hits: list(field(json, "items")).map((r) => ({
          title: text(r.title),
          url: text(r.link),
          snippet: text(r.snippet),
        })),
      };
    },
  },
  tavily: {
    credentialType: "tavily",
    request(q, count, base, key) {
      return {
        url: join(base, "search"),
        method: "POST",
        headers: {
          authorization: `Bearer ${key.apiKey}`,
          "content-type": "application/json",
          accept: "application/json",
        },
        body: JSON.stringify({ query: q, max_results: count, include_answer: true }),
      };
    },
    read(json) {
      return {
        answer: text(field(json, "answer")) || undefined,
        hits: list(field(json, "results")).map((r) => ({
          title: text(r.title),
          url: text(r.url),
          snippet: text(r.content),
        })),
      };
    },
  },
  braveSearch: {
    credentialType: "braveSearch",
    request(q, count, base, key) {
      const url = join(base, "res/v1/web/search");
      url.search = new URLSearchParams({ q, count: String(Math.min(count, 20)) }).toString();
      return { url, method: "GET", headers: { "x-subscription-token": key.apiKey, accept: "application/json" } };
    },
    read(json) {
      return {
        hits: list(field(field(json, "web"), "results")).map((r) => ({
          title: text(r.title),
          url: text(r.url),
          snippet: text(r.description),
        })),
      };
    },
  },
  searxng: {
    request(q, _count, base) {
      const url = join(base, "search");
      url.search = new URLSearchParams({ q, format: "json" }).toString();
      return { url, method: "GET", headers: { accept: "application/json" } };
    },
    read(json) {
      const answers = field(json, "answers");
      return {
        answer: Array.isArray(answers) ? text(answers[0]) || undefined : undefined,
        hits: list(field(json, "results")).map((r) => ({
          title: text(r.title),
          url: text(r.url),
          snippet: text(r.content),
        })),
      };
    },
  },
} as const satisfies Record<string, SearchApi>;

export type SearchApiId = keyof typeof SEARCH_APIS;

/** The hits as the agent reads them: a direct answer first, then numbered results, cut to `max` characters. */
export function formatSearchAnswer({ answer, hits }: SearchAnswer, count: number, max: number): string {
  const lines: string[] = [];
  if (answer) lines.push(`Answer: ${answer}`, "");
  const shown = hits.filter((h) => h.url || h.title).slice(0, count);
  if (shown.length === 0 && !answer) return "No results.";
  shown.forEach((h, i) => {
    lines.push(`${i + 1}. ${h.title || h.url}`, `   ${h.url}`);
    if (h.snippet) lines.push(`   ${h.snippet.replace(/\s+/g, " ").trim()}`);
  });
  const out = lines.join("\n");
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** A search tool node's definition: the provider's credential (or SearXNG's server URL), result count and size cap. */
export function webSearchDefinition<const Name extends string>(spec: {
  name: Name;
  label: string;
  description: string;
  api: SearchApiId;
  toolName: string;
}) {
  const api: SearchApi = SEARCH_APIS[spec.api];
  const source = api.credentialType
    ? ({
        kind: "param",
        name: "credential",
        label: "Credential",
        type: "credential",
        credentialTypes: [api.credentialType],
      } as const)
    : ({
        kind: "param",
        name: "baseUrl",
        label: "SearXNG server URL",
        type: "string",
        placeholder: "http://127.0.0.1:8888",
        pattern: "^https?://",
        description: "Your SearXNG instance (its JSON format must be enabled in its settings).",
      } as const);
  return {
    name: spec.name,
    version: 1,
    label: spec.label,
    category: "Tools",
    description: spec.description,
    inputs: [
      source,
      {
        kind: "param",
        name: "toolName",
        label: "Tool name",
        type: "string",
        default: spec.toolName,
        pattern: "^[A-Za-z0-9_-]{1,64}$",
        additional: true,
      },
      {
        kind: "param",
        name: "toolDescription",
        label: "Tool description",
        type: "text",
        default: "Searches the web for current information. Input: a search query.",
        additional: true,
      },
      {
        kind: "param",
        name: "maxResults",
        label: "Results",
        type: "number",
        default: 5,
        integer: true,
        min: 1,
        max: 20,
      },
      {
        kind: "param",
        name: "maxOutputLength",
        label: "Max output length",
        type: "number",
        default: 4000,
        integer: true,
        min: 200,
        max: 50_000,
        additional: true,
        description: "Characters of results handed to the agent.",
      },
    ],
    outputs: [{ name: "tool", label: "Tool", types: [T.tool] }],
  } as const satisfies NodeDefinitionSpec;
}

type WebSearchDefinition = ReturnType<typeof webSearchDefinition<string>>;

/**
 * The search tool of one API. The key is sent only to the provider's host (or the credential's base
 * URL), through the guarded fetch pinned to that host; a failure (refused key, timeout, bad answer)
 * fails the tool call naming the provider, so the agent reads it and goes on. Keys never appear in
 * what the agent or the caller sees.
 */
export function webSearchRuntime(apiId: SearchApiId): RuntimeOf<WebSearchDefinition> {
  const api: SearchApi = SEARCH_APIS[apiId];
  return async ({ params, ctx, label, nodeId }) => {
    const requester = requesterOf({ label, nodeId });
    const provider = api.credentialType ? PROVIDER_KINDS[api.credentialType].label : "SearXNG";
    let base: string;
    let key: Record<string, string> = {};
    if (api.credentialType) {
      const p = params as { credential?: string };
      if (!p.credential) throw new AppError("not_configured", `${requester}: choose a ${provider} credential.`);
      const cred = await ctx.resolveCredential(p.credential);
      const apiKey = credentialText(cred, "apiKey");
      if (!apiKey) throw new AppError("not_configured", `${requester}: credential "${cred.name}" has no API key.`);
      base = credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL[api.credentialType];
      assertCredentialHost(cred, base, requester);
      key = Object.fromEntries(
        Object.entries(cred.data).filter((e): e is [string, string] => typeof e[1] === "string"),
      );
    } else {
      base = (params as { baseUrl?: string }).baseUrl ?? "";
      try {
        new URL(base);
      } catch {
        throw new AppError("invalid_graph", `${requester}: "${base}" is not a valid SearXNG server URL.`);
      }
    }
    const fetch = ctx.fetchFor?.({ baseUrl: base, methods: ["GET", "POST"] }) ?? ctx.fetch;
    return tool(
      async ({ query }, config) => {
        const req = api.request(query, params.maxResults, base, key);
        let json: unknown;
        try {
          const res = await fetch(req.url, {
            method: req.method,
            headers: req.headers,
            body: req.body,
            signal: config?.signal,
          });
          if (res.status === 401 || res.status === 403)
            throw new Error(`it refused the credential (HTTP ${res.status})`);
          if (res.status === 429) throw new Error("it is rate limiting this key (HTTP 429); try again later");
          if (!res.ok) throw new Error(`it answered HTTP ${res.status}`);
          json = await res.json().catch(() => {
            throw new Error("its answer is not JSON");
          });
        } catch (err) {
          if (config?.signal?.aborted) throw err;
          // The provider named; never the URL (SerpAPI and Google carry the key in it).
          const why = err instanceof Error ? err.message.replaceAll(key.apiKey || "\u0000", "***") : String(err);
          throw new Error(`${provider} search failed: ${why}`);
        }
        return formatSearchAnswer(api.read(json), params.maxResults, params.maxOutputLength);
      },
      {
        name: params.toolName,
        description: params.toolDescription,
        schema: z.object({ query: z.string().min(1).max(2000).describe("What to search the web for") }),
      },
    );
  };
}
