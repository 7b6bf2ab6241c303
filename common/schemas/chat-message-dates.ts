import { z } from "zod";

/**
 * ISO 8601 dates for query filters. A date (`2025-03-01`) or a date-time with an optional offset
 * (`2025-03-01T10:00`, `…:30Z`, `…+02:00`, `…+0200`); without an offset the time is UTC. A `+` left
 * unencoded in a URL arrives as a space, so `10:00 02:00` is read as `10:00+02:00`.
 */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export type DateBound = { at: Date; dateOnly: boolean };

function validDay(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** Parses one ISO 8601 date or date-time; null when it is not one (including 2025-02-30, 25:00). */
export function parseIsoDate(raw: string): DateBound | null {
  const value = raw.trim().replace(/^(\S+[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) (\d{2}:?\d{2})$/, "$1+$2");
  const day = DATE_ONLY.exec(value);
  if (day) {
    const [y, m, d] = day.slice(1, 4).map(Number);
    return validDay(y, m, d) ? { at: new Date(Date.UTC(y, m - 1, d)), dateOnly: true } : null;
  }
  const dt = DATE_TIME.exec(value);
  if (!dt) return null;
  const [y, m, d, hh, mm] = dt.slice(1, 6).map(Number);
  const ss = dt[6] ? Number(dt[6]) : 0;
  if (!validDay(y, m, d) || hh > 23 || mm > 59 || ss > 59) return null;
  const ms = dt[7] ? Math.floor(Number(`0${dt[7]}`) * 1000) : 0;
  let offsetMin = 0;
  const zone = dt[8];
  if (zone && zone.toUpperCase() !== "Z") {
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) return null;
    offsetMin = (zone[0] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  return { at: new Date(Date.UTC(y, m - 1, d, hh, mm, ss, ms) - offsetMin * 60_000), dateOnly: false };
}

/**
 * What the OpenAPI document says isoDateParam takes: a real day (29 February aside) or a date-time
 * with `T`, to the nanosecond, with `Z` or an offset. The parser takes a little more (a space for
 * `T`, `+0200`), never less.
 */
const ISO_DATE_PATTERN =
  "^[1-9]\\d{3}-((0[1-9]|1[0-2])-(0[1-9]|1\\d|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)" +
  "(T([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)?)?$";

/** A query parameter holding an ISO 8601 date or date-time. */
export const isoDateParam = z
  .string()
  .transform((raw, ctx) => {
    const parsed = parseIsoDate(raw);
    if (!parsed) {
      ctx.issues.push({
        code: "custom",
        input: raw,
        message: "must be an ISO 8601 date (2025-03-01) or date-time (2025-03-01T10:00:00Z)",
      });
      return z.NEVER;
    }
    return parsed;
  })
  .meta({
    override: {
      pattern: ISO_DATE_PATTERN,
      description: "An ISO 8601 date (2025-03-01) or date-time (2025-03-01T10:00:00Z)",
    },
  });

/**
 * The half-open time range [gte, lt) or closed [gte, lte] a start/end pair selects. A date-only
 * end includes that whole (UTC) day.
 */
export function dateRange(start?: DateBound, end?: DateBound): { gte?: Date; lt?: Date; lte?: Date } | undefined {
  if (!start && !end) return undefined;
  const range: { gte?: Date; lt?: Date; lte?: Date } = {};
  if (start) range.gte = start.at;
  if (end?.dateOnly) range.lt = new Date(end.at.getTime() + 86_400_000);
  else if (end) range.lte = end.at;
  return range;
}
