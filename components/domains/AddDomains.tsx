"use client";

import { useState } from "react";
import type { z } from "zod";
import { api } from "@/browser/client/api";
import { addDomainsResponseSchema } from "@/common/schemas/responses";
import { domainNamesFromCsv, domainNamesFromText } from "@/common/schemas/domain-csv";
import { Button, Card, ErrorNote } from "@/components/ui/controls";

type AddResult = z.output<typeof addDomainsResponseSchema>;
const CHUNK = 10_000;

/** Sends names in calls of at most 10,000 and adds up the answers. */
async function addAll(names: string[]) {
  const total = {
    received: 0,
    added: 0,
    alreadyKnown: 0,
    invalid: 0,
    duplicates: 0,
    invalidNames: [] as AddResult["invalidNames"],
  };
  for (let i = 0; i < names.length; i += CHUNK) {
    const r = await api("/api/v1/domains", {
      method: "POST",
      body: { names: names.slice(i, i + CHUNK) },
      schema: addDomainsResponseSchema,
    });
    total.received += r.received;
    total.added += r.added;
    total.alreadyKnown += r.alreadyKnown;
    total.invalid += r.invalid;
    total.duplicates += r.duplicates;
    total.invalidNames.push(...r.invalidNames.slice(0, 20 - total.invalidNames.length));
  }
  return total;
}

/** Add domains by typing them or importing a CSV file. */
export function AddDomains({ onAdded }: { onAdded: () => void }) {
  const [text, setText] = useState("");
  const [result, setResult] = useState<Awaited<ReturnType<typeof addAll>> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (names: string[]) => {
    if (!names.length) return;
    setBusy(true);
    setError(null);
    try {
      setResult(await addAll(names));
      setText("");
      onAdded();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="mb-6 p-4">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          submit(domainNamesFromText(text));
        }}
      >
        <label className="flex min-w-72 flex-1 flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">Add domains</span>
          <span className="text-xs text-slate-500">One per line, or separated by commas.</span>
          <textarea
            aria-label="Add domains"
            rows={2}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="example.com, shop.example.org"
            className="rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none"
          />
        </label>
        <Button type="submit" disabled={busy || !text.trim()}>
          Add
        </Button>
        <label className="inline-flex cursor-pointer items-center rounded-md bg-white px-3 py-1.5 text-sm font-medium ring-1 ring-slate-300 hover:bg-slate-50">
          Import CSV
          <input
            type="file"
            accept=".csv,.txt,text/csv,text/plain"
            className="sr-only"
            aria-label="Import CSV"
            disabled={busy}
            onChange={async (e) => {
              const f = e.target.files?.[0];
              e.target.value = "";
              if (f) await submit(domainNamesFromCsv(await f.text()));
            }}
          />
        </label>
      </form>
      <ErrorNote error={error} />
      {result && (
        <div role="status" className="mt-3 text-sm text-slate-700">
          Added {result.added}, already known {result.alreadyKnown}, invalid {result.invalid}
          {result.duplicates ? `, ${result.duplicates} duplicates merged` : ""}.
          {result.invalid > 0 && " Invalid names were not added:"}
          {result.invalidNames.length > 0 && (
            <ul className="mt-1 list-disc pl-5 text-xs text-slate-500">
              {result.invalidNames.map((n) => (
                // Invalid names are not stored: listed here with why, to be fixed and added again.
                <li key={n.name}>
                  <code>{n.name}</code>: {n.error}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}
