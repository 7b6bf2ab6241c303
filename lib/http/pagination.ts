import type { Page } from "../db/keyset";
import { json } from "./responses";

/** Headers naming the next page: `X-Next-Cursor` and `Link: <…>; rel="next"` (readable by browsers). */
export function nextPageHeaders(req: Request, nextCursor: string | null): Record<string, string> {
  if (!nextCursor) return {};
  const next = new URL(req.url);
  // The cursor names where the next page starts: an offset `page` (messages, Flowise's) would contradict it.
  next.searchParams.delete("page");
  next.searchParams.set("cursor", nextCursor);
  return {
    "x-next-cursor": nextCursor,
    link: `<${next.pathname}${next.search}>; rel="next"`,
    "access-control-expose-headers": "X-Next-Cursor, Link",
  };
}

/**
 * A list Flowise (or the studio) reads as a bare array stays one: the page's rows as the body, the
 * next page in the headers (docs/api.md "Pages").
 */
export function pagedArray<T>(req: Request, page: Page<T>): Response {
  return json(page.items, 200, nextPageHeaders(req, page.nextCursor));
}

/** The headers documented on every paged list's 200 answer. */
export const PAGE_HEADER_DOCS = {
  "X-Next-Cursor": "The cursor of the next page (absent on the last page and when the whole list was asked for)",
  Link: 'The next page\'s URL as `<…>; rel="next"` (absent on the last page)',
};
