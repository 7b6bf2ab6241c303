import { convert } from "html-to-text";

/**
 * A page's readable text: headings, paragraphs, lists and tables; no scripts, styles, images, forms
 * or navigation chrome. `selector` (CSS) keeps only the matching part of the page (its main content).
 */
export function readableText(html: string, selector?: string): string {
  return convert(html, {
    wordwrap: false,
    ...(selector ? { baseElements: { selectors: [selector], returnDomByDefault: false } } : {}),
    selectors: [
      { selector: "img", format: "skip" },
      { selector: "nav", format: "skip" },
      { selector: "footer", format: "skip" },
      { selector: "form", format: "skip" },
      { selector: "svg", format: "skip" },
      { selector: "a", options: { ignoreHref: true } },
      { selector: "table", format: "dataTable" },
    ],
  })
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The page's <title>, if it has one. */
export function pageTitle(html: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim();
  return title || undefined;
}
