import type { z } from "zod";
import { AppError } from "@/common/errors";
import { log } from "../log";

/** Where a stored JSON value was read: named in the log and in the error. */
export interface StoredAt {
  table: string;
  column: string;
  id: string;
}

/**
 * A JSON column's value read with its schema (instead of a cast). Values are checked when they are
 * written, so one that does not parse is corrupt data, not the caller's doing: it is logged with the
 * row's id and the first differences, and answered 500 `stored_data_invalid`, never passed on in a
 * shape the code does not expect.
 */
export function parseStoredJson<S extends z.ZodType>(schema: S, value: unknown, at: StoredAt): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues
    .slice(0, 5)
    .map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
  log.error({ ...at, issues }, "stored JSON does not match its schema");
  throw new AppError(
    "stored_data_invalid",
    `The stored ${at.column} of ${at.table} ${at.id} is not in the expected shape (see the server log).`,
  );
}
