import { z } from "zod";
import { positiveIntParam } from "./query-params";

/**
 * One cursor pagination for every list (docs/api.md "Pages"): `limit` rows per page and `cursor`,
 * the previous page's next cursor. A cursor is opaque to callers: base64url of the list's name and
 * the last row's sort key and id; one that does not decode to that (edited, from another list) is 400.
 */

/** Most rows one page holds. */
export const PAGE_MAX_LIMIT = 1000;
/** Rows per page when a `cursor` comes without a `limit`. */
export const PAGE_DEFAULT_LIMIT = 100;

/** Where a page ends: the last row's sort key (a date as epoch ms, a string or a number) and id. */
export type CursorPosition = { key: string | number; id: string };

const positionSchema = z.tuple([
  z.string(),
  z.union([z.string().max(1000), z.number().finite()]),
  z.string().min(1).max(300),
]);

/** The cursor of the page after the row at `position` in `list`. */
export function encodeCursor(list: string, position: CursorPosition): string {
  const bytes = new TextEncoder().encode(JSON.stringify([list, position.key, position.id]));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The position a cursor of `list` names, or undefined for anything else. */
export function decodeCursor(list: string, cursor: string): CursorPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(cursor)) return undefined;
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const parsed = positionSchema.safeParse(JSON.parse(text));
    if (!parsed.success || parsed.data[0] !== list) return undefined;
    return { key: parsed.data[1], id: parsed.data[2] };
  } catch {
    return undefined;
  }
}

/** The `cursor` query parameter of `list`: decoded, or 400 naming it. */
export const cursorParam = (list: string) =>
  z
    .string()
    .transform((raw, ctx) => {
      const position = decodeCursor(list, raw);
      if (!position) {
        ctx.addIssue({ code: "custom", message: "must be the next cursor of a previous page of this list" });
        return z.NEVER;
      }
      return position;
    })
    .meta({ override: { pattern: "^[A-Za-z0-9_-]{1,2000}$" } });

/** `limit` and `cursor` for a list's query schema (spread into its z.object). */
export const pageParams = (list: string) => ({
  limit: positiveIntParam(PAGE_MAX_LIMIT)
    .optional()
    .meta({ description: `Rows per page (1–${PAGE_MAX_LIMIT}); with neither limit nor cursor, the whole list` }),
  cursor: cursorParam(list)
    .optional()
    .meta({ description: "The next cursor of the previous page (X-Next-Cursor, or nextCursor in an envelope)" }),
});

/** What a list route passes to its service: both undefined for the whole list. */
export type PageRequest = { limit?: number; cursor?: CursorPosition };

/** The page part of a parsed query. */
export const pageOfQuery = (q: PageRequest): PageRequest => ({
  ...(q.limit !== undefined ? { limit: q.limit } : {}),
  ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
});
