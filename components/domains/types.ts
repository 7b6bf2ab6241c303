export type { AnalysisRunRecord, DomainRecord } from "@/common/schemas/domain";

export type DomainFilterState = {
  hasAnalysis: string;
  isValid: string;
  analysisStatus: string;
  searchTerm: string;
  sort: string;
};

export const EMPTY_FILTERS: DomainFilterState = {
  hasAnalysis: "",
  isValid: "",
  analysisStatus: "",
  searchTerm: "",
  sort: "createdAt:desc",
};

/** The list API's query string for the filters and a page. */
export function domainQuery(f: DomainFilterState, page: number, limit: number): string {
  const q = new URLSearchParams({ page: String(page), limit: String(limit) });
  for (const key of ["hasAnalysis", "isValid", "analysisStatus", "searchTerm", "sort"] as const)
    if (f[key]) q.set(key, f[key]);
  return `?${q}`;
}
