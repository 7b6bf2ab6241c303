"use client";

import { Handle, Position } from "@xyflow/react";
import { createContext, useContext } from "react";
import { labelledOutputs } from "@/browser/canvas/agentflow";
import type { EditorEdge } from "@/browser/canvas/types";
import { RUN_NODE_LABEL, type RunNodeStatus } from "@/common/agentflow/run-path";
import { handleId } from "@/common/nodes/handles";
import { anchorInputs, type NodeDefinition } from "@/common/nodes/types";
import { LoopBackHandles } from "./AgentflowParts";
import { categoryStyle } from "./node-style";

/**
 * One run laid over the canvas (the Executions view): the canvas draws each step as a compact card
 * with its status in that run (a word and a sign, never colour alone), the edges the run went along
 * drawn thick and solid and the others thin and dashed, and a click on a step shows what went in and
 * came out. Absent (the editor): the canvas draws its forms.
 */
export interface RunOverlay {
  /** Each step's status in the run (nodes that are no steps, such as chat models, are absent). */
  nodes: ReadonlyMap<string, RunNodeStatus>;
  /** Ids of the edges taken (saved edges, and `loop-back:<id>` for a Loop that went back). */
  edges: ReadonlySet<string>;
  /** The step whose input and output are shown. */
  selected: string | null;
  onShow: (nodeId: string) => void;
}

const RunOverlayContext = createContext<RunOverlay | null>(null);

export const RunOverlayProvider = RunOverlayContext.Provider;

/** The run laid over the canvas, or null in the editor. */
export function useRunOverlay(): RunOverlay | null {
  return useContext(RunOverlayContext);
}

const LOOK: Record<RunNodeStatus, { card: string; chip: string; sign: string }> = {
  finished: { card: "border-emerald-500", chip: "bg-emerald-100 text-emerald-900", sign: "✓" },
  error: { card: "border-red-500", chip: "bg-red-100 text-red-900", sign: "✕" },
  paused: { card: "border-amber-500", chip: "bg-amber-100 text-amber-900", sign: "⏸" },
  running: { card: "border-sky-500", chip: "bg-sky-100 text-sky-900", sign: "…" },
  "in-iteration": { card: "border-fuchsia-400", chip: "bg-fuchsia-100 text-fuchsia-900", sign: "↻" },
  // Dimmed by a dashed border and a grey ground, not by opacity: its text keeps its contrast (axe).
  "not-reached": {
    card: "border-dashed border-slate-300 bg-slate-50!",
    chip: "bg-slate-200 text-slate-800",
    sign: "○",
  },
};

const TAKEN = { stroke: "#047857", strokeWidth: 3 };
const NOT_TAKEN = { stroke: "#94a3b8", strokeWidth: 1.5, strokeDasharray: "5 5" };

/** The edges as a run shows them: those taken thick and solid, the others thin and dashed. */
export function runEdges(edges: EditorEdge[], run: RunOverlay): EditorEdge[] {
  return edges.map((e) => {
    const taken = run.edges.has(e.id);
    return {
      ...e,
      className: taken ? "run-taken" : "run-not-taken",
      style: taken ? TAKEN : NOT_TAKEN,
      animated: false,
      zIndex: taken ? 1 : 0,
      selectable: false,
      focusable: false,
    };
  });
}

/**
 * A node of the flow in a run: its badge, label and id, its status, and the handles its edges
 * attach to. The header is a button showing the step's input and output.
 */
export function RunNodeCard({
  id,
  def,
  label,
  inputs,
  run,
}: {
  id: string;
  def: NodeDefinition;
  label: string;
  inputs: Record<string, unknown>;
  run: RunOverlay;
}) {
  const status = run.nodes.get(id);
  const step = def.capabilities?.agentflow;
  const outputs = step ? labelledOutputs(def, inputs) : def.outputs;
  const look = status ? LOOK[status] : undefined;
  const selected = run.selected === id;
  const style = categoryStyle[def.category];
  return (
    <article
      aria-label={`${label} node${status ? `, ${RUN_NODE_LABEL[status].toLowerCase()}` : ""}`}
      data-node-type={def.name}
      data-run-status={status ?? "no-step"}
      data-testid={`run-node-${id}`}
      className={`w-[240px] rounded-xl border-2 bg-white text-left shadow-md ${look?.card ?? "border-slate-200"} ${selected ? "ring-4 ring-brand-300" : ""}`}
    >
      {step && step.role !== "note" && <LoopBackHandles nodeId={id} loop={!!step.loopTarget} />}
      <button
        type="button"
        className="nodrag flex w-full items-start gap-2 rounded-t-xl px-3 py-2 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        aria-pressed={selected}
        onClick={() => run.onShow(id)}
      >
        <span
          className={`mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-md text-[11px] font-bold ${style.badge}`}
          aria-hidden
        >
          {style.glyph}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-semibold text-slate-900">{label}</span>
          <span className="block truncate font-mono text-[11px] text-slate-500">{id}</span>
          {/* The name is the text shown plus what the button does (axe: the label holds the visible text). */}
          <span className="sr-only">: show its input and output</span>
        </span>
      </button>
      {status && look && (
        <p className="px-3 pb-2">
          <span
            className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium ${look.chip}`}
            data-testid="run-node-status"
          >
            <span aria-hidden>{look.sign}</span>
            {RUN_NODE_LABEL[status]}
          </span>
        </p>
      )}
      {anchorInputs(def).map((a) => (
        <div key={a.name} className="relative px-3 py-0.5 text-[11px] text-slate-500">
          <Handle
            type="target"
            position={Position.Left}
            id={handleId(id, a.name, "in")}
            isConnectable={false}
            className="h-2.5! w-2.5! border-2! border-white! bg-slate-400!"
          />
          {a.label}
        </div>
      ))}
      {outputs.length > 0 && (
        <footer className="rounded-b-xl bg-slate-50 py-0.5">
          {outputs.map((o) => (
            <div key={o.name} className="relative truncate px-3 py-0.5 text-right text-[11px] text-slate-600">
              {o.label}
              <Handle
                type="source"
                position={Position.Right}
                id={handleId(id, o.name, "out")}
                isConnectable={false}
                className="h-2.5! w-2.5! border-2! border-white! bg-brand-600!"
              />
            </div>
          ))}
        </footer>
      )}
    </article>
  );
}
