import { tool } from "@langchain/core/tools";
import { z } from "zod";
import type { RuntimeOf } from "../define";
import { pageTitle, readableText } from "../shared/html-text";
import type { webBrowserDefinition } from "./definition";

/** How much of a page is read at most before it is turned into text (the guard caps the download too). */
const MAX_PAGE_BYTES = 2_000_000;

/**
 * A tool reading one page per call. The URL comes from the model, so it goes through the guarded
 * fetch like any outbound call (private and metadata addresses refused unless the operator allows
 * them, redirects re-checked, time and size capped); HTML becomes readable text, plain text and JSON
 * pass as they are, anything else is named and not read. Failures fail the tool call, naming the page.
 */
export const buildWebBrowser: RuntimeOf<typeof webBrowserDefinition> = async ({ params, ctx }) =>
  tool(
    async ({ url }, config) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        throw new Error(`"${url.slice(0, 200)}" is not a URL: give the page's full http(s) address.`);
      }
      if (target.protocol !== "http:" && target.protocol !== "https:")
        throw new Error(`only http(s) pages can be read, not ${target.protocol}`);
      const page = `${target.origin}${target.pathname}`;
      let res: Response;
      try {
        res = await ctx.fetch(target, {
          headers: { accept: "text/html, text/plain;q=0.9, */*;q=0.5" },
          signal: config?.signal,
        });
      } catch (err) {
        if (config?.signal?.aborted) throw err;
        throw new Error(`could not read ${page}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new Error(`${page} answered HTTP ${res.status}`);
      }
      const type = (res.headers.get("content-type") ?? "").toLowerCase();
      const textual = /^(text\/|application\/(json|xml|xhtml\+xml|ld\+json))/.test(type) || type === "";
      if (!textual) {
        await res.body?.cancel().catch(() => undefined);
        throw new Error(`${page} is not a text page (${type.split(";")[0]})`);
      }
      const bytes = new Uint8Array(await res.arrayBuffer()).subarray(0, MAX_PAGE_BYTES);
      const body = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
      const html = type.includes("html") || (type === "" && /^\s*</.test(body));
      const title = html ? pageTitle(body) : undefined;
      const text = html ? readableText(body) : body.trim();
      const out = `${title ? `${title}\n${page}\n\n` : `${page}\n\n`}${text || "(the page has no text)"}`;
      return out.length > params.maxOutputLength ? `${out.slice(0, params.maxOutputLength)}…` : out;
    },
    {
      name: params.toolName,
      description: params.toolDescription,
      schema: z.object({ url: z.string().min(1).max(2000).describe("The page's full http(s) URL") }),
    },
  );
