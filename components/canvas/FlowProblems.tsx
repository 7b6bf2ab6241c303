"use client";

import { useEditorState } from "./editor-context";

const selectFlow = (s: { problems: { flow: string[] } }) => s.problems.flow;

/** Problems of the whole flow, which belong to no single node (e.g. an empty flow). */
export function FlowProblems() {
  const flow = useEditorState(selectFlow);
  if (flow.length === 0) return null;
  return (
    <div
      className="pointer-events-none absolute right-3 top-3 z-10 max-w-xs rounded-lg border border-amber-200 bg-amber-50/95 px-3 py-2 text-xs text-amber-900 shadow-sm"
      role="status"
    >
      {flow.map((m) => (
        <p key={m}>{m}</p>
      ))}
    </div>
  );
}
