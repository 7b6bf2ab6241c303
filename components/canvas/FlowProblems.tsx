"use client";

import { useReactFlow } from "@xyflow/react";
import { useState } from "react";
import type { PanelProblem } from "@/browser/canvas/problems";
import { useEditorState, useEditorStore } from "./editor-context";

const selectPanel = (s: { problems: { panel: PanelProblem[] } }) => s.problems.panel;

/**
 * The problems panel: problems of the whole flow once (e.g. several ending nodes, an empty flow),
 * then each node's own problems. A node named in a problem is a button that selects it and brings
 * it into view.
 */
export function FlowProblems() {
  const panel = useEditorState(selectPanel);
  const store = useEditorStore();
  const rf = useReactFlow();
  const [open, setOpen] = useState(true);
  if (panel.length === 0) return null;
  const show = (id: string) => {
    store.select([id]);
    void rf.fitView({ nodes: [{ id }], maxZoom: 1, minZoom: 0.5, duration: 200 });
  };
  return (
    <section
      aria-label="Problems"
      data-testid="problems-panel"
      className="absolute right-3 top-3 z-10 flex max-h-[45%] w-80 max-w-[calc(100%-1.5rem)] flex-col rounded-lg border border-amber-200 bg-amber-50/95 text-xs text-amber-900 shadow-sm"
    >
      <button
        type="button"
        className="flex items-center justify-between gap-2 px-3 py-2 text-left font-semibold"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
      >
        <span>
          {panel.length} {panel.length === 1 ? "problem" : "problems"}
        </span>
        <span className="font-normal text-amber-700">{open ? "Hide" : "Show"}</span>
      </button>
      {open && (
        <ul className="min-h-0 space-y-1.5 overflow-auto px-3 pb-2" role="status">
          {panel.map((p) => (
            <li key={p.key} data-scope={p.scope} className={p.scope === "flow" ? "font-medium" : undefined}>
              <p>{p.text}</p>
              {p.nodes.length > 0 && (
                <p className="mt-0.5 flex flex-wrap gap-1">
                  {p.nodes.map((n) => (
                    <button
                      key={n.id}
                      type="button"
                      className="rounded bg-white px-1.5 py-0.5 font-normal text-amber-900 ring-1 ring-amber-300 hover:bg-amber-100"
                      aria-label={`Select node ${n.label} (${n.id})`}
                      onClick={() => show(n.id)}
                    >
                      {n.label} <span className="font-mono text-[10px] text-amber-700">{n.id}</span>
                    </button>
                  ))}
                </p>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
