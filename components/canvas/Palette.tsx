"use client";

import { memo, useMemo, useState } from "react";
import type { NodeDefinition } from "@/common/nodes/types";
import { useEditorStore } from "./editor-context";
import { categoryStyle } from "./node-style";

/** MIME type of a palette drag; the payload is the definition name. */
export const PALETTE_MIME = "application/x-switchyard-node";

/** Node types by category, searchable; drag onto the canvas, or press Enter / click to add. */
export const Palette = memo(function Palette({ onAdd }: { onAdd: (defName: string) => void }) {
  const [query, setQuery] = useState("");
  const { definitions } = useEditorStore().catalog;
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const hits = definitions.filter((d) => !q || `${d.label} ${d.description} ${d.category}`.toLowerCase().includes(q));
    const byCat = new Map<string, NodeDefinition[]>();
    for (const d of hits) byCat.set(d.category, [...(byCat.get(d.category) ?? []), d]);
    return [...byCat.entries()];
  }, [query, definitions]);
  return (
    <aside aria-label="Node palette" className="flex w-60 shrink-0 flex-col border-r border-slate-200 bg-white">
      <div className="border-b border-slate-100 p-3">
        <label htmlFor="palette-search" className="sr-only">
          Search nodes
        </label>
        <input
          id="palette-search"
          type="search"
          placeholder="Search nodes…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          // The hint below promises it: Enter adds the first match (the one listed first).
          onKeyDown={(e) => {
            if (e.key !== "Enter" || e.nativeEvent.isComposing) return;
            e.preventDefault();
            const first = groups[0]?.[1][0];
            if (first) onAdd(first.name);
          }}
          aria-describedby="palette-hint"
          className="w-full rounded-md border border-slate-300 px-2.5 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100"
        />
        <p id="palette-hint" className="mt-2 text-[11px] text-slate-500">
          Drag a node onto the canvas, or press Enter to add it (in the search box: the first match).
        </p>
      </div>
      <div className="flex-1 overflow-y-auto px-2 py-2">
        {groups.length === 0 && <p className="px-2 text-sm text-slate-500">No node matches “{query}”.</p>}
        {groups.map(([category, defs]) => (
          <section key={category} className="mb-3">
            <h2 className="px-2 pb-1 text-[11px] font-semibold uppercase tracking-wide text-slate-400">{category}</h2>
            <ul>
              {defs.map((d) => (
                <li key={d.name}>
                  <button
                    type="button"
                    draggable
                    data-testid={`palette-${d.name}`}
                    title={d.description}
                    onDragStart={(e) => {
                      e.dataTransfer.setData(PALETTE_MIME, d.name);
                      e.dataTransfer.effectAllowed = "move";
                    }}
                    onClick={() => onAdd(d.name)}
                    // While searching, the match Enter adds is marked.
                    data-enter-target={query.trim() && d === groups[0][1][0] ? "true" : undefined}
                    className="group flex w-full cursor-grab items-start gap-2 rounded-md px-2 py-1.5 text-left hover:bg-slate-50 active:cursor-grabbing data-enter-target:bg-brand-50 data-enter-target:ring-1 data-enter-target:ring-brand-200"
                  >
                    <span
                      className={`mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded text-[10px] font-bold ${categoryStyle[d.category].badge}`}
                      aria-hidden
                    >
                      {categoryStyle[d.category].glyph}
                    </span>
                    <span className="min-w-0">
                      <span className="block text-sm font-medium text-slate-800">{d.label}</span>
                      <span className="line-clamp-2 text-[11px] leading-snug text-slate-500">{d.description}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
});
