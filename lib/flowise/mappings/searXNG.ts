import { defineMapping, ignore, oneOf, param, toHttpUrl } from "../rules";

/** Flowise "SearXNG" → our SearXNG search tool (its server URL kept; search options at the server's defaults). */
export const searXNG = defineMapping({
  flowise: "searXNG",
  type: "searxngSearch",
  inputs: {
    apiBase: param("baseUrl", toHttpUrl),
    toolName: param("toolName"),
    toolDescription: param("toolDescription"),
    headers: ignore("extra request headers are not sent", () => false),
    format: ignore("results are always read as JSON", oneOf("json")),
    categories: ignore("search categories are the server's default", () => false),
    engines: ignore("search engines are the server's default", () => false),
    language: ignore("the language is the server's default", () => false),
    pageno: ignore("only the first page is read", oneOf(1, "1")),
    time_range: ignore("a time range is not sent", () => false),
    safesearch: ignore("safe search is the server's default", () => false),
  },
});
