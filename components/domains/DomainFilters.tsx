"use client";

import { useState } from "react";
import { Button, Card, TextInput } from "@/components/ui/controls";
import { EMPTY_FILTERS, type DomainFilterState } from "./types";

const selectClass = "rounded-md border border-slate-300 bg-white px-3 py-2 text-sm";

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: [string, string][];
  onChange: (v: string) => void;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <select aria-label={label} className={selectClass} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Filter, search and sort controls; the search applies on submit, the selects at once. */
export function DomainFilters({
  value,
  onChange,
}: {
  value: DomainFilterState;
  onChange: (f: DomainFilterState) => void;
}) {
  const [search, setSearch] = useState(value.searchTerm);
  const set = (patch: Partial<DomainFilterState>) => onChange({ ...value, ...patch });
  return (
    <Card className="mb-3 p-4">
      <search>
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            set({ searchTerm: search.trim() });
          }}
        >
          <TextInput
            label="Search name or analysis"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            className="min-w-56 flex-1"
          />
          <Button type="submit" variant="secondary">
            Search
          </Button>
          <Select
            label="Analysis"
            value={value.hasAnalysis}
            onChange={(v) => set({ hasAnalysis: v })}
            options={[
              ["", "Any"],
              ["analyzed", "Analysed"],
              ["not_analyzed", "Not analysed"],
            ]}
          />
          <Select
            label="Validity"
            value={value.isValid}
            onChange={(v) => set({ isValid: v })}
            options={[
              ["", "Any"],
              ["true", "Valid"],
              ["false", "Invalid"],
            ]}
          />
          <Select
            label="Status"
            value={value.analysisStatus}
            onChange={(v) => set({ analysisStatus: v })}
            options={[
              ["", "Any"],
              ["queued", "Queued"],
              ["running", "Running"],
              ["succeeded", "Succeeded"],
              ["failed", "Failed"],
            ]}
          />
          <Select
            label="Sort"
            value={value.sort}
            onChange={(v) => set({ sort: v })}
            options={[
              ["createdAt:desc", "Newest"],
              ["createdAt:asc", "Oldest"],
              ["name:asc", "Name A–Z"],
              ["name:desc", "Name Z–A"],
              ["analyzedAt:desc", "Recently analysed"],
            ]}
          />
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setSearch("");
              onChange(EMPTY_FILTERS);
            }}
          >
            Clear
          </Button>
        </form>
      </search>
    </Card>
  );
}
