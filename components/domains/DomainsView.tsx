"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { z } from "zod";
import { api } from "@/browser/client/api";
import { domainListResponseSchema } from "@/common/schemas/responses";
import { Button, Card, ErrorNote, PageHeader } from "@/components/ui/controls";
import { AddDomains } from "./AddDomains";
import { AnalyzeBar } from "./AnalyzeBar";
import { DomainRow } from "./DomainRow";
import { DomainFilters } from "./DomainFilters";
import { domainQuery, EMPTY_FILTERS, type DomainFilterState } from "./types";

const LIMIT = 20;

/** Domains: add and import, filter and search, page, select and analyse, read each analysis. */
export function DomainsView() {
  const qc = useQueryClient();
  const [filters, setFilters] = useState<DomainFilterState>(EMPTY_FILTERS);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const domains = useQuery({
    queryKey: ["domains", filters, page],
    queryFn: () => api(`/api/v1/domains${domainQuery(filters, page, LIMIT)}`, { schema: domainListResponseSchema }),
    placeholderData: keepPreviousData,
  });
  const refresh = useCallback(() => qc.invalidateQueries({ queryKey: ["domains"] }), [qc]);
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const rows = domains.data?.data ?? [];
  const allOnPage = rows.length > 0 && rows.every((d) => selected.has(d.id));
  const { sort: _sort, ...filterOnly } = filters;
  const activeFilter = Object.fromEntries(Object.entries(filterOnly).filter(([, v]) => v));

  return (
    <>
      <PageHeader
        title="Domains"
        subtitle="Web domains the team tracks, checked against the Public Suffix List and analysed by a chatflow."
      />
      <AddDomains onAdded={refresh} />
      <DomainFilters
        value={filters}
        onChange={(f) => {
          setFilters(f);
          setPage(1);
        }}
      />
      <Card className="mb-3 p-3">
        <AnalyzeBar selected={[...selected]} filter={activeFilter} onProgress={refresh} />
      </Card>
      <ErrorNote error={domains.error} />
      <Card className="overflow-hidden">
        <table className="w-full text-left text-sm">
          <thead className="bg-slate-50 text-xs uppercase text-slate-500">
            <tr>
              <th className="w-8 px-3 py-2">
                <input
                  type="checkbox"
                  aria-label="Select all on this page"
                  checked={allOnPage}
                  onChange={() =>
                    setSelected((s) => {
                      const next = new Set(s);
                      for (const d of rows) {
                        if (allOnPage) next.delete(d.id);
                        else next.add(d.id);
                      }
                      return next;
                    })
                  }
                />
              </th>
              <th className="px-3 py-2">Domain</th>
              <th className="px-3 py-2">Valid</th>
              <th className="px-3 py-2">Analysis</th>
              <th className="px-3 py-2">Analysed</th>
              <th className="px-3 py-2">Added</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <DomainRow key={d.id} domain={d} selected={selected.has(d.id)} onToggle={() => toggle(d.id)} />
            ))}
            {domains.data && rows.length === 0 && (
              <tr>
                <td colSpan={6} className="px-4 py-6 text-center text-slate-500">
                  No domains match.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        {domains.data && (
          <div className="flex items-center justify-between border-t border-slate-100 px-4 py-2 text-xs text-slate-500">
            <Button variant="ghost" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span data-testid="domains-total">
              {pageSummary(domains.data.pagination)}
              {selected.size ? ` · ${selected.size} selected` : ""}
            </span>
            <Button variant="ghost" disabled={!domains.data.pagination.hasNext} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        )}
      </Card>
    </>
  );
}

/** "Page 2 of 7 · 130 domains", or for a search counted only so far "Page 2 of 50+ · 1,000+ domains". */
function pageSummary(p: z.output<typeof domainListResponseSchema>["pagination"]) {
  const more = p.totalExact ? "" : "+";
  const count = `${p.total.toLocaleString("en-US")}${more}`;
  return `Page ${p.page} of ${Math.max(1, p.totalPages)}${more} · ${count} domain${p.total === 1 && !more ? "" : "s"}`;
}
