import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { testContext } from "../../flow/__fixtures__/graphs";
import { createGuardedFetch } from "../../security/outbound";
import { getDefinition, getNode } from "../registry";

/** What each provider's server saw, and what it answers next (by path). */
interface Seen {
  method?: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}
let seen: Seen[] = [];
let override: { status: number; body: string; hang?: boolean } | undefined;
let server: http.Server;
let base: string;
const hanging = new Set<http.ServerResponse>();

/** Each API's answer shape, from its public reference. */
const ANSWERS: Record<string, unknown> = {
  "/search.json": {
    answer_box: { answer: "Paris" },
    organic_results: [
      { title: "Paris - Wikipedia", link: "https://en.wikipedia.org/wiki/Paris", snippet: "Capital of France." },
    ],
  },
  "/search": {
    // Serper (POST), Tavily (POST) and SearXNG (GET) share the path: told apart by method and body.
  },
  "/customsearch/v1": { items: [{ title: "Paris", link: "https://paris.fr", snippet: "Official site." }] },
  "/res/v1/web/search": {
    web: { results: [{ title: "Paris travel", url: "https://brave.example/paris", description: "Visit Paris." }] },
  },
};

function answerFor(req: http.IncomingMessage, body: Record<string, unknown>): unknown {
  const path = new URL(req.url ?? "/", "http://x").pathname;
  if (path !== "/search") return ANSWERS[path];
  if (req.method === "GET")
    return {
      answers: ["Paris is the capital"],
      results: [{ title: "SearX hit", url: "https://searx.example/1", content: "from searx" }],
    };
  if ("q" in body)
    return {
      answerBox: { snippet: "Paris." },
      organic: [{ title: "Serper hit", link: "https://serper.example/1", snippet: "from serper" }],
    };
  return {
    answer: "Paris.",
    results: [{ title: "Tavily hit", url: "https://tavily.example/1", content: "from tavily" }],
  };
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const body = raw ? JSON.parse(raw) : {};
      const url = new URL(req.url ?? "/", "http://x");
      seen.push({
        method: req.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body,
      });
      if (override?.hang) {
        hanging.add(res);
        return;
      }
      if (override) {
        res.writeHead(override.status, { "content-type": "application/json" });
        res.end(override.body);
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answerFor(req, body)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  for (const res of hanging) res.destroy();
  return new Promise<void>((r) => server.close(() => r()));
});
afterEach(() => {
  seen = [];
  override = undefined;
});

type Tool = { invoke(input: unknown): Promise<string>; name: string };

async function searchTool(
  type: string,
  credential?: { type: string; data: Record<string, string> },
  params = {},
  fetch?: typeof globalThis.fetch,
) {
  const parsed = paramsSchemaFor(getDefinition(type)!).parse({
    ...(credential ? { credential: "c1" } : { baseUrl: base }),
    ...params,
  });
  const ctx = {
    ...testContext(credential ? { c1: { name: "Search key", ...credential } } : {}),
    ...(fetch ? { fetch } : {}),
  };
  return (await getNode(type)!.runtime({ nodeId: "s1", label: "Search", params: parsed, inputs: {}, ctx })) as Tool;
}

describe("web search tools", () => {
  it("SerpAPI: GET /search.json with the key as api_key, answer box first", async () => {
    const t = await searchTool("serpAPI", { type: "serpApi", data: { apiKey: "serp-key", baseURL: base } });
    expect(t.name).toBe("search");
    const out = await t.invoke({ query: "capital of France" });
    expect(seen[0]).toMatchObject({
      method: "GET",
      path: "/search.json",
      query: { q: "capital of France", api_key: "serp-key", engine: "google", num: "5" },
    });
    expect(out).toBe(
      "Answer: Paris\n\n1. Paris - Wikipedia\n   https://en.wikipedia.org/wiki/Paris\n   Capital of France.",
    );
  });

  it("Serper: POST /search with X-API-KEY and {q, num}", async () => {
    const t = await searchTool(
      "serper",
      { type: "serper", data: { apiKey: "serper-key", baseURL: base } },
      { maxResults: 3 },
    );
    const out = await t.invoke({ query: "paris" });
    expect(seen[0]).toMatchObject({ method: "POST", path: "/search", body: { q: "paris", num: 3 } });
    expect(seen[0].headers["x-api-key"]).toBe("serper-key");
    expect(out).toContain("1. Serper hit\n   https://serper.example/1\n   from serper");
  });

  it("Google Custom Search: GET /customsearch/v1 with key, cx and at most 10 results", async () => {
    const t = await searchTool(
      "googleCustomSearch",
      { type: "googleCustomSearch", data: { apiKey: "g-key", searchEngineId: "cx-1", baseURL: base } },
      { maxResults: 20 },
    );
    const out = await t.invoke({ query: "paris" });
    expect(seen[0]).toMatchObject({
      path: "/customsearch/v1",
      query: { key: "g-key", cx: "cx-1", q: "paris", num: "10" },
    });
    expect(out).toContain("1. Paris\n   https://paris.fr");
  });

  it("Tavily: POST /search with a Bearer key, asking for its answer", async () => {
    const t = await searchTool("tavilySearch", { type: "tavily", data: { apiKey: "tvly-key", baseURL: base } });
    const out = await t.invoke({ query: "paris" });
    expect(seen[0]).toMatchObject({
      method: "POST",
      path: "/search",
      body: { query: "paris", max_results: 5, include_answer: true },
    });
    expect(seen[0].headers.authorization).toBe("Bearer tvly-key");
    expect(out.startsWith("Answer: Paris.\n\n1. Tavily hit")).toBe(true);
  });

  it("Brave: GET /res/v1/web/search with X-Subscription-Token", async () => {
    const t = await searchTool("braveSearch", { type: "braveSearch", data: { apiKey: "brave-key", baseURL: base } });
    const out = await t.invoke({ query: "paris" });
    expect(seen[0]).toMatchObject({ method: "GET", path: "/res/v1/web/search", query: { q: "paris", count: "5" } });
    expect(seen[0].headers["x-subscription-token"]).toBe("brave-key");
    expect(out).toContain("Visit Paris.");
  });

  it("SearXNG: GET <server>/search?format=json, no key", async () => {
    const t = await searchTool("searxngSearch");
    const out = await t.invoke({ query: "paris" });
    expect(seen[0]).toMatchObject({ method: "GET", path: "/search", query: { q: "paris", format: "json" } });
    expect(out).toContain("Answer: Paris is the capital");
  });

  it("a key sent only to the provider's host: a credential naming none goes to the provider's own", async () => {
    const t = await searchTool("serpAPI", { type: "serpApi", data: { apiKey: "serp-key" } }, {}, (async (url: URL) => {
      throw new Error(`would call ${url.host}`);
    }) as never);
    await expect(t.invoke({ query: "x" })).rejects.toThrow(/SerpAPI search failed: would call serpapi\.com/);
  });

  it("a refused key, a 429 and a broken answer fail the tool call naming the provider, never the key", async () => {
    const t = await searchTool("serpAPI", { type: "serpApi", data: { apiKey: "serp-secret", baseURL: base } });
    override = { status: 401, body: '{"error":"Invalid API key serp-secret"}' };
    await expect(t.invoke({ query: "x" })).rejects.toThrow(
      "SerpAPI search failed: it refused the credential (HTTP 401)",
    );
    override = { status: 429, body: "{}" };
    await expect(t.invoke({ query: "x" })).rejects.toThrow(/SerpAPI search failed: it is rate limiting this key/);
    override = { status: 200, body: "<html>" };
    await expect(t.invoke({ query: "x" })).rejects.toThrow("SerpAPI search failed: its answer is not JSON");
  });

  it("a provider that does not answer in time fails the call naming it, with the key masked", async () => {
    const fetch = createGuardedFetch({ allowPrivate: true, timeoutMs: 300 }) as unknown as typeof globalThis.fetch;
    const t = await searchTool(
      "serpAPI",
      { type: "serpApi", data: { apiKey: "serp-secret", baseURL: base } },
      {},
      fetch,
    );
    override = { status: 200, body: "", hang: true };
    const err = await t.invoke({ query: "x" }).catch((e: Error) => e);
    expect(String(err)).toMatch(/SerpAPI search failed: .*no complete answer within 300 ms/);
    expect(String(err)).not.toContain("serp-secret");
  });

  it("no results, and results cut to the output cap", async () => {
    const t = await searchTool("searxngSearch", undefined, { maxOutputLength: 200 });
    override = { status: 200, body: JSON.stringify({ results: [] }) };
    expect(await t.invoke({ query: "x" })).toBe("No results.");
    override = {
      status: 200,
      body: JSON.stringify({
        results: Array.from({ length: 20 }, (_, i) => ({
          title: `t${i}`,
          url: `https://e/${i}`,
          content: "x".repeat(100),
        })),
      }),
    };
    const out = await t.invoke({ query: "x" });
    expect(out.length).toBe(201);
    expect(out.endsWith("…")).toBe(true);
  });

  it("refuses a search tool without its credential, and SearXNG without a server URL", () => {
    expect(paramsSchemaFor(getDefinition("serpAPI")!).safeParse({}).success).toBe(false);
    expect(paramsSchemaFor(getDefinition("searxngSearch")!).safeParse({ baseUrl: "ftp://x" }).success).toBe(false);
  });
});
