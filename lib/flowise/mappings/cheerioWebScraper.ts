import { anchor, defineMapping, ignore, param, toHttpUrl, toInteger, toJson, toText } from "../rules";

/** Flowise's crawl choice → our loader's mode ("" means the page alone). */
const mode = (value: unknown) => {
  if (value === "webCrawl") return { value: "crawl" };
  if (value === "scrapeXMLSitemap") return { value: "sitemap" };
  if (value === "" || value === undefined) return { value: "page" };
  return { drop: `"${String(value)}" is not a crawl method we know` };
};

/**
 * Flowise "Cheerio Web Scraper" → our Web Page Loader: the page, a same-site crawl or a sitemap's
 * pages as readable text (Flowise keeps the raw text of the selected elements; ours drops scripts,
 * navigation and images too).
 */
export const cheerioWebScraper = defineMapping({
  flowise: "cheerioWebScraper",
  type: "webPageLoader",
  inputs: {
    url: param("url", toHttpUrl),
    textSplitter: anchor("textSplitter"),
    relativeLinksMethod: param("mode", mode),
    limit: param("limit", (value, ctx) => {
      const r = toInteger(value, ctx);
      // Flowise: 0 means every link it finds; ours stops at a number (500 at most).
      return "value" in r && r.value === 0 ? { value: 500, warning: "a limit of 0 (all pages) became 500 pages" } : r;
    }),
    selector: param("selector", toText),
    metadata: param("metadata", toJson),
    omitMetadataKeys: ignore("omitting metadata keys has no equivalent", () => false),
  },
  outputs: { document: "document" },
});
