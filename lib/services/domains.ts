import { encodeCursor } from "@/common/schemas/pagination";
import { domainsCursorList } from "@/common/schemas/domain";
import type { Domain } from "../db/generated/client";
import { AppError } from "@/common/errors";
import { findDomains, insertDomains } from "../db/queries/domains";
import type { AddDomainsBody, DomainRecord, ListDomainsQuery } from "@/common/schemas/domain";
import { recoverInterruptedAnalyses } from "./domains-analysis";
import { checkDomainName, normaliseDomainName } from "./domains-names";

/** The API's view of a domain. */
export function toDomainRecord(row: Domain): DomainRecord {
  return {
    id: row.id,
    name: row.name,
    isValid: row.isValid,
    validationError: row.validationError,
    analysis: row.analysisText === null ? null : { text: row.analysisText, json: row.analysis ?? null },
    analysisChatflowId: row.analysisChatflowId,
    analysisStatus: row.analysisStatus,
    analysisError: row.analysisError,
    analyzedAt: row.analyzedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One page of domains matching the filters, with pagination facts. */
export async function listDomains({ filters, page, limit, sort, cursor }: ListDomainsQuery) {
  await recoverInterruptedAnalyses();
  // One row past the page tells whether another follows (sorts by name or createdAt page by cursor).
  const { total, rows: read } = await findDomains({
    where: filters,
    orderBy: sort,
    skip: cursor ? 0 : (page - 1) * limit,
    take: limit,
    ...(cursor ? { after: cursor } : {}),
  });
  const rows = read.slice(0, limit);
  const last = rows[rows.length - 1];
  const byKey = sort.field !== "analyzedAt" && read.length > limit && last;
  const nextCursor = byKey
    ? encodeCursor(domainsCursorList(sort), {
        key: sort.field === "createdAt" ? last.createdAt.getTime() : last.name,
        id: last.id,
      })
    : null;
  const totalPages = Math.ceil(total.count / limit);
  return {
    data: rows.map(toDomainRecord),
    // totalExact false: a search with more matches than it counts (SEARCH_COUNT_CAP); total and
    // totalPages are then lower bounds, and hasNext is still exact.
    pagination: {
      page,
      limit,
      total: total.count,
      totalExact: total.exact,
      totalPages,
      hasNext: cursor ? read.length > limit : page < totalPages,
    },
    nextCursor,
  };
}

const INSERT_CHUNK = 1000;
const REPORTED_INVALID = 100;

/** Longest name stored: a host name has at most 253 characters (RFC 1035). */
const MAX_STORED_NAME = 253;

/**
 * A "name" longer than any host name is not a domain typed by mistake, and a long one breaks the
 * unique index on Domain.name (PostgreSQL caps a btree row at ~2,700 bytes): refused, 400 naming the entry.
 */
function refuseOverlongNames(names: (string | null)[], field: string): void {
  const i = names.findIndex((n) => n !== null && n.length > MAX_STORED_NAME);
  if (i < 0) return;
  const where = field === "body.names" ? `${field}.${i}` : field;
  throw new AppError(
    "validation_failed",
    `${where}: longer than ${MAX_STORED_NAME} characters once normalised, so it cannot be a domain name.`,
  );
}

/**
 * Adds domains: normalises each name, merges duplicates, checks syntax and public suffix, and
 * stores the new valid names. Invalid names are never stored: they are counted and reported back
 * (`invalidNames`, each with why) so the person can fix them and send them again.
 * Answers how many were added, already known, invalid, merged duplicates and empty entries.
 */
export async function addDomains(body: AddDomainsBody) {
  const inputs = body.names ?? [body.name!];
  const names = inputs.map(normaliseDomainName);
  refuseOverlongNames(names, body.names ? "body.names" : "body.name");
  const unique = [...new Set(names.filter((n): n is string => n !== null))];
  const checked = unique.map(checkDomainName);
  const valid = checked.filter((c) => c.isValid);
  const invalid = checked.filter((c) => !c.isValid);
  let added = 0;
  // Names already stored (also by a concurrent call) are skipped by the insert, not refused.
  for (let i = 0; i < valid.length; i += INSERT_CHUNK)
    added += await insertDomains({ rows: valid.slice(i, i + INSERT_CHUNK) });
  const alreadyKnown = valid.length - added;
  return {
    received: inputs.length,
    added,
    alreadyKnown,
    invalid: invalid.length,
    duplicates: names.length - unique.length - names.filter((n) => n === null).length,
    empty: names.filter((n) => n === null).length,
    invalidNames: invalid.slice(0, REPORTED_INVALID).map((c) => ({ name: c.name, error: c.validationError })),
  };
}
