import { encodeCursor, PAGE_DEFAULT_LIMIT, type PageRequest } from "@/common/schemas/pagination";

/**
 * Keyset pages over Prisma (common/schemas/pagination.ts has the cursor): a list orders by its sort
 * key then id, and a page is the rows after the cursor's (key, id), so rows added or removed between
 * pages never shift it: nothing repeats, nothing already there is skipped. A row whose sort key
 * changes between pages (a chatflow saved again moves to the top) may be seen twice or not at all.
 */

/** A list's order: its sort key (a column of dates, strings or numbers) and direction; `id` breaks ties. */
export type KeysetOrder = {
  list: string;
  field: string;
  direction: "asc" | "desc";
  kind: "date" | "string" | "number";
};

/** One page of rows and the cursor of the next (null on the last page, and for a whole list). */
export type Page<T> = { items: T[]; nextCursor: string | null };

/** Whether the caller asked for a page (a limit or a cursor); otherwise the list is answered whole. */
export const isPaged = (page: PageRequest | undefined): page is PageRequest =>
  page?.limit !== undefined || page?.cursor !== undefined;

/**
 * Prisma findMany arguments for a page: `where` (rows after the cursor, to AND with the list's own
 * filter), `orderBy` (key, id) and `take` (one more than the limit, to know whether a next page exists).
 */
export function keysetArgs(order: KeysetOrder, page: PageRequest | undefined) {
  const orderBy = [{ [order.field]: order.direction }, { id: order.direction }];
  if (!isPaged(page)) return { where: {}, orderBy };
  const take = (page.limit ?? PAGE_DEFAULT_LIMIT) + 1;
  if (!page.cursor) return { where: {}, orderBy, take };
  const op = order.direction === "asc" ? "gt" : "lt";
  const key = order.kind === "date" ? new Date(Number(page.cursor.key)) : page.cursor.key;
  const where = {
    OR: [{ [order.field]: { [op]: key } }, { [order.field]: key, id: { [op]: page.cursor.id } }],
  };
  return { where, orderBy, take };
}

/** The page of rows read with keysetArgs: the first `limit`, and the cursor after the last when more follow. */
export function pageFrom<T extends { id: string }>(
  rows: T[],
  order: KeysetOrder,
  page: PageRequest | undefined,
): Page<T> {
  if (!isPaged(page)) return { items: rows, nextCursor: null };
  const limit = page.limit ?? PAGE_DEFAULT_LIMIT;
  if (rows.length <= limit) return { items: rows, nextCursor: null };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1] as T;
  const value = (last as Record<string, unknown>)[order.field];
  const key = value instanceof Date ? value.getTime() : (value as string | number);
  return { items, nextCursor: encodeCursor(order.list, { key, id: last.id }) };
}

/** Maps a page's rows, keeping its cursor. */
export const mapPage = <T, U>(page: Page<T>, f: (row: T) => U): Page<U> => ({
  items: page.items.map(f),
  nextCursor: page.nextCursor,
});
