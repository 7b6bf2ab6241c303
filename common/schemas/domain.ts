import { decodeCursor } from "./pagination";
import { z } from "zod";
import { positiveIntParam } from "./query-params";
import type { analysisRunResponseSchema, domainResponseSchema } from "./responses";

/** Most names one POST /api/v1/domains accepts. */
export const DOMAINS_MAX_PER_CALL = 10_000;
/** Most domains one analysis run takes. */
export const ANALYSIS_MAX_PER_RUN = 10_000;
export const DOMAINS_MAX_LIMIT = 100;

export const SORT_FIELDS = ["name", "createdAt", "analyzedAt"] as const;
export const ANALYSIS_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

// Booleans are accepted too, for JSON bodies (`"isValid": true`).
const lower = (v: unknown) => (typeof v === "string" ? v.trim().toLowerCase() : typeof v === "boolean" ? String(v) : v);

const hasAnalysisValue = z
  .preprocess(
    lower,
    z.enum(["true", "analyzed", "false", "not_analyzed"], { error: "must be true, analyzed, false or not_analyzed" }),
  )
  .transform((v) => v === "true" || v === "analyzed");
const isValidValue = z
  .preprocess(lower, z.enum(["true", "false"], { error: "must be true or false" }))
  .transform((v) => v === "true");

/** Filters shared by the list and by "analyse what matches". */
export const domainFilterFields = {
  hasAnalysis: hasAnalysisValue.optional(),
  isValid: isValidValue.optional(),
  searchTerm: z
    .string()
    .trim()
    .max(200, "must be at most 200 characters")
    .transform((v) => v || undefined)
    .optional(),
  analysisStatus: z
    .preprocess(lower, z.enum(ANALYSIS_STATUSES, { error: `must be one of ${ANALYSIS_STATUSES.join(", ")}` }))
    .optional(),
};

/**
 * GET /domains and /api/v1/domains. `sort` is a field with an optional direction:
 * `name`, `createdAt:desc`, `-analyzedAt` (a leading minus means descending).
 */
export const listDomainsQuery = z
  .object({
    ...domainFilterFields,
    page: positiveIntParam().optional(),
    limit: positiveIntParam(DOMAINS_MAX_LIMIT).optional(),
    sort: z
      .string()
      .trim()
      .regex(
        /^-?(name|createdAt|analyzedAt)(:(asc|desc))?$/i,
        "must be name, createdAt or analyzedAt, optionally with :asc or :desc (or a leading -)",
      )
      .optional(),
    cursor: z
      .string()
      .meta({ override: { pattern: "^[A-Za-z0-9_-]{1,2000}$" } })
      .optional(),
  })
  .transform(({ page, limit, sort, cursor, ...filters }, ctx) => {
    const order = parseSort(sort);
    // A cursor belongs to one sort: one of another (or an edited one) is 400.
    const position = cursor === undefined ? undefined : decodeCursor(domainsCursorList(order), cursor);
    if (cursor !== undefined && order.field === "analyzedAt")
      ctx.addIssue({ code: "custom", path: ["cursor"], message: "pages by cursor sort by name or createdAt" });
    else if (cursor !== undefined && !position)
      ctx.addIssue({
        code: "custom",
        path: ["cursor"],
        message: "must be the next cursor of a previous page of this list and sort",
      });
    if (cursor !== undefined && page !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["page"],
        message: "cannot be combined with cursor (a cursor names where the page starts)",
      });
    return { filters, page: page ?? 1, limit: limit ?? 20, sort: order, ...(position ? { cursor: position } : {}) };
  });

/** The list name a domains cursor carries: its sort, so a cursor continues only the order it came from. */
export const domainsCursorList = (sort: DomainSort) => `domains:${sort.field}:${sort.direction}`;

export type DomainSort = { field: (typeof SORT_FIELDS)[number]; direction: "asc" | "desc" };

function parseSort(raw?: string): DomainSort {
  if (!raw) return { field: "createdAt", direction: "desc" };
  const desc = raw.startsWith("-");
  const [name, dir] = raw.replace(/^-/, "").split(":");
  const field = SORT_FIELDS.find((f) => f.toLowerCase() === name.toLowerCase())!;
  const direction = dir ? (dir.toLowerCase() as "asc" | "desc") : desc ? "desc" : field === "name" ? "asc" : "desc";
  return { field, direction };
}

export type ListDomainsQuery = z.infer<typeof listDomainsQuery>;
export type DomainFilters = ListDomainsQuery["filters"];

const nameInput = z.string().max(2048, "must be at most 2048 characters");

/** POST /api/v1/domains: one `name` or a list of `names` (duplicates are merged). */
export const addDomainsBody = z
  .strictObject({
    name: nameInput.optional(),
    names: z.array(nameInput).max(DOMAINS_MAX_PER_CALL, `must hold at most ${DOMAINS_MAX_PER_CALL} names`).optional(),
  })
  .refine((b) => (b.name === undefined) !== (b.names === undefined), {
    message: "send either name or names",
    path: ["name"],
  })
  .meta({ override: { oneOf: [{ required: ["name"] }, { required: ["names"] }] } });

export type AddDomainsBody = z.infer<typeof addDomainsBody>;

/** String filters as the list takes them, for "analyse what matches". */
const filterBody = z.strictObject({
  hasAnalysis: hasAnalysisValue.optional(),
  isValid: isValidValue.optional(),
  searchTerm: domainFilterFields.searchTerm,
  analysisStatus: domainFilterFields.analysisStatus,
});

/** POST /api/v1/domains/analyze: domain ids or a filter, and the chatflow that analyses them. */
export const analyzeDomainsBody = z
  .strictObject({
    chatflowId: z.uuid({ error: "must be a chatflow UUID" }),
    ids: z
      .array(z.uuid({ error: "must be a domain UUID" }))
      .min(1)
      .max(ANALYSIS_MAX_PER_RUN)
      .optional(),
    filter: filterBody.optional(),
  })
  .refine((b) => (b.ids === undefined) !== (b.filter === undefined), {
    message: "send either ids or filter",
    path: ["ids"],
  })
  .meta({ override: { oneOf: [{ required: ["ids"] }, { required: ["filter"] }] } });

export type AnalyzeDomainsBody = z.infer<typeof analyzeDomainsBody>;

/** A domain as the API returns it (the schema in responses.ts). */
export type DomainRecord = z.output<typeof domainResponseSchema>;

/** Progress of one analysis run. */
export type AnalysisRunRecord = z.output<typeof analysisRunResponseSchema>;
