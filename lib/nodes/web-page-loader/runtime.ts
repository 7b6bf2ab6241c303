import { AppError } from "@/common/errors";
import { splitDocuments } from "../../vector/loaders";
import type { DocumentSource, StoreDocument } from "../../vector/types";
import type { RuntimeOf } from "../define";
import { pageTitle, readableText } from "../shared/html-text";
import type { webPageLoaderDefinition } from "./definition";

/** Links of a page (href values, resolved against the page). */
function linksOf(html: string, page: URL): URL[] {
  const out: URL[] = [];
  for (const m of html.matchAll(/<a\s[^>]*href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    try {
      const url = new URL((m[1] ?? m[2] ?? m[3]).replace(/&amp;/g, "&"), page);
      url.hash = "";
      out.push(url);
    } catch {
      // not a URL: skipped
    }
  }
  return out;
}

/** The page URLs a sitemap lists (<loc>), and the sitemaps a sitemap index lists. */
function sitemapLocations(xml: string): { pages: string[]; sitemaps: string[] } {
  const locs = (block: string) =>
    [...block.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)].map((m) => m[1].replace(/&amp;/g, "&"));
  const isIndex = /<sitemapindex[\s>]/i.test(xml);
  return isIndex ? { pages: [], sitemaps: locs(xml) } : { pages: locs(xml), sitemaps: [] };
}

/**
 * A source reading pages when an upsert runs (never at build: a flow is built per prediction). Every
 * request goes through the flow's guarded fetch (private addresses only where the operator allows
 * them, redirects re-checked, time and size capped). Crawling stays on the start page's origin and
 * stops at `limit` pages; a page that fails is skipped and named in the error only when none loads.
 */
export const buildWebPageLoader: RuntimeOf<typeof webPageLoaderDefinition> = async ({ params, inputs, label, ctx }) => {
  let start: URL;
  try {
    start = new URL(params.url);
  } catch {
    throw new AppError("invalid_graph", `${label}: "${params.url}" is not a valid URL.`);
  }
  const get = async (url: URL): Promise<{ type: string; body: string }> => {
    const res = await ctx.fetch(url, { headers: { accept: "text/html, application/xml;q=0.9, text/plain;q=0.8" } });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new Error(`HTTP ${res.status}`);
    }
    return { type: (res.headers.get("content-type") ?? "").toLowerCase(), body: await res.text() };
  };
  const source: DocumentSource = {
    kind: "documentSource",
    label,
    accepts: [],
    async load() {
      const docs: StoreDocument[] = [];
      const failures: string[] = [];
      const read = async (url: URL): Promise<string | undefined> => {
        try {
          const page = await get(url);
          const html = page.type.includes("html") || /^\s*</.test(page.body);
          const text = html ? readableText(page.body, params.selector || undefined) : page.body.trim();
          if (text)
            docs.push({
              pageContent: text,
              metadata: { source: url.href, ...(html && pageTitle(page.body) ? { title: pageTitle(page.body) } : {}) },
            });
          return html ? page.body : undefined;
        } catch (err) {
          failures.push(`${url.href}: ${err instanceof Error ? err.message : String(err)}`);
          return undefined;
        }
      };
      if (params.mode === "sitemap") {
        const pages: URL[] = [];
        const queue = [start];
        const seenMaps = new Set<string>();
        while (queue.length && pages.length < params.limit && seenMaps.size < 20) {
          const map = queue.shift()!;
          if (seenMaps.has(map.href)) continue;
          seenMaps.add(map.href);
          let xml: string;
          try {
            xml = (await get(map)).body;
          } catch (err) {
            throw new AppError(
              "upstream_error",
              `${label}: the sitemap ${map.href} could not be read (${(err as Error).message}).`,
            );
          }
          const { pages: found, sitemaps } = sitemapLocations(xml);
          for (const s of sitemaps) queue.push(new URL(s, map));
          for (const p of found) if (pages.length < params.limit) pages.push(new URL(p, map));
        }
        for (const page of pages) await read(page);
      } else if (params.mode === "crawl") {
        const seen = new Set([start.href]);
        const queue = [start];
        while (queue.length && docs.length + failures.length < params.limit) {
          const url = queue.shift()!;
          const html = await read(url);
          if (!html) continue;
          for (const link of linksOf(html, url)) {
            if (link.origin !== start.origin || seen.has(link.href)) continue;
            if (
              !/^https?:$/.test(link.protocol) ||
              /\.(png|jpe?g|gif|svg|webp|pdf|zip|gz|mp4|mp3|css|js)$/i.test(link.pathname)
            )
              continue;
            seen.add(link.href);
            queue.push(link);
          }
        }
      } else {
        await read(start);
      }
      if (docs.length === 0 && failures.length)
        throw new AppError("upstream_error", `${label}: no page could be read (${failures.slice(0, 3).join("; ")}).`);
      const extra =
        params.metadata && typeof params.metadata === "object" && !Array.isArray(params.metadata)
          ? params.metadata
          : {};
      const withExtra = docs.map((d) => ({ ...d, metadata: { ...extra, ...d.metadata } }));
      return splitDocuments(withExtra, inputs.textSplitter, label);
    },
  };
  return source;
};
