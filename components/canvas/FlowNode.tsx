"use client";

import { Handle, Position, useStore, useStoreApi, type NodeProps, type ReactFlowState } from "@xyflow/react";
import { memo, useCallback, useEffect, useState } from "react";
import { problemsKey, type NodeProblem } from "@/browser/canvas/problems";
import { savedFilesInto } from "@/browser/canvas/saved-files";
import type { EditorNode } from "@/browser/canvas/types";
import { handleId } from "@/common/nodes/handles";
import { storeKindOf } from "@/common/nodes/capabilities";
import {
  anchorInputs,
  paramInputs,
  type AnchorInput,
  type NodeDefinition,
  type NodeOutput,
} from "@/common/nodes/types";
import { useEditorState, useEditorStore } from "./editor-context";
import { categoryStyle } from "./node-style";
import { ParamField } from "./ParamField";
import { useParams } from "next/navigation";
import { useEditorSlots } from "./editor-slots";
import { labelledOutputs } from "@/browser/canvas/agentflow";
import { GroupFrame, LoopBackHandles, LoopFooter } from "./AgentflowParts";
import { RunNodeCard, useRunOverlay } from "./RunOverlay";
import { takesVariables } from "@/common/agentflow/references";

const sameProblems = (a: NodeProblem[] | undefined, b: NodeProblem[] | undefined) => problemsKey(a) === problemsKey(b);

/**
 * Below this zoom a large flow is a map: each node is drawn as a card (badge, label, handles) instead
 * of its form. Text there is unreadable anyway, and hundreds of forms (inputs, code editors) make
 * opening, panning and zooming slow. A small flow keeps its forms at any zoom.
 */
export const LOW_DETAIL_ZOOM = 0.5;
export const LOW_DETAIL_MIN_NODES = 50;
export const selectLowDetail = (s: ReactFlowState) =>
  s.transform[2] < LOW_DETAIL_ZOOM && s.nodeLookup.size >= LOW_DETAIL_MIN_NODES;

/** The one node component: header, input anchors, param form and outputs, all from the definition. */
export const FlowNode = memo(function FlowNode({ id, data, selected }: NodeProps<EditorNode>) {
  const store = useEditorStore();
  const problems = useEditorState(
    useCallback((s) => s.problems.byNode.get(id), [id]),
    sameProblems,
  );
  const [showMore, setShowMore] = useState(false);
  const [showInfo, setShowInfo] = useState(false);
  const flow = useStoreApi();
  const lowDetail = useStore(selectLowDetail);
  // A run on view (the Executions view): each node is a card with its status in that run.
  const run = useRunOverlay();
  // The info panel belongs to the selected node: it closes when the node is deselected.
  useEffect(() => {
    if (!selected) setShowInfo(false);
  }, [selected]);
  const onChange = useCallback((name: string, value: unknown) => store.updateParam(id, name, value), [store, id]);
  const def = store.catalog.get(data.defName);
  if (!def) {
    return (
      <div className="w-64 rounded-lg border-2 border-red-400 bg-red-50 p-3 text-xs text-red-800">
        Unknown node type “{data.defName}”.
      </div>
    );
  }
  if (run) {
    const card = <RunNodeCard id={id} def={def} label={data.label || def.label} inputs={data.inputs} run={run} />;
    return def.capabilities?.agentflow?.container ? (
      <GroupFrame nodeId={id} label={data.label || def.label}>
        {card}
      </GroupFrame>
    ) : (
      card
    );
  }
  const style = categoryStyle[def.category];
  if (lowDetail) {
    // Keep the size the form had (measured before zooming out), so edges and layout stay put.
    const measured = flow.getState().nodeLookup.get(id)?.measured?.height;
    return (
      <NodeCard
        id={id}
        def={def}
        outputs={def.capabilities?.agentflow ? labelledOutputs(def, data.inputs) : def.outputs}
        label={data.label || def.label}
        problems={problems?.length ?? 0}
        height={measured}
      />
    );
  }
  const errorFor = (name: string) => {
    const found = problems?.find((p) => p.input === name);
    return found?.fieldMessage;
  };
  const params = paramInputs(def);
  const main = params.filter((p) => !p.additional);
  const more = params.filter((p) => p.additional);
  const paramField = (p: (typeof params)[number]) => (
    <ParamField
      key={p.name}
      nodeId={id}
      param={p}
      value={data.inputs[p.name]}
      error={errorFor(p.name)}
      onChange={onChange}
      variables={takesVariables(def, p)}
    />
  );
  const general = problems?.filter((p) => !p.input || !def.inputs.some((i) => i.name === p.input)) ?? [];
  const step = def.capabilities?.agentflow;
  const outputs = step ? labelledOutputs(def, data.inputs) : def.outputs;
  const ring = problems?.length
    ? "border-red-400 ring-2 ring-red-200"
    : selected
      ? "border-brand-500 ring-2 ring-brand-100"
      : "border-slate-200";
  const form = (
    <article
      aria-label={`${data.label || def.label} node`}
      data-node-type={def.name}
      data-invalid={problems?.length ? "true" : undefined}
      className={`w-[264px] rounded-xl border bg-white text-left shadow-md ${ring}`}
    >
      {step && step.role !== "note" && <LoopBackHandles nodeId={id} loop={!!step.loopTarget} />}
      <header className="flex items-start gap-2 rounded-t-xl border-b border-slate-100 px-3 py-2">
        <span
          className={`mt-0.5 grid h-7 w-7 shrink-0 place-items-center rounded-md text-[11px] font-bold ${style.badge}`}
          aria-hidden
        >
          {style.glyph}
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="truncate text-sm font-semibold text-slate-900" title={def.description}>
            {data.label || def.label}
          </h3>
          <p className="truncate text-[11px] text-slate-500">
            {def.category} · <span className="font-mono">{id}</span>
          </p>
        </div>
        <button
          type="button"
          className={`nodrag grid h-6 w-6 shrink-0 place-items-center rounded-full text-xs font-semibold ring-1 ${showInfo ? "bg-brand-600 text-white ring-brand-600" : "text-slate-500 ring-slate-300 hover:bg-slate-100"}`}
          aria-label={`About ${data.label || def.label}`}
          aria-expanded={showInfo}
          onClick={() => {
            setShowInfo((v) => !v);
            // Opening the info selects the node (a nodrag button does not), so it closes on deselect.
            if (!selected) flow.getState().addSelectedNodes([id]);
          }}
        >
          i
        </button>
        {problems?.length ? (
          <span
            className="rounded-full bg-red-100 px-1.5 text-[11px] font-semibold text-red-700"
            title={problems.map((p) => p.message).join("\n")}
          >
            {problems.length} {problems.length === 1 ? "issue" : "issues"}
          </span>
        ) : null}
      </header>
      {showInfo && <NodeInfo def={def} />}
      {anchorInputs(def).length > 0 && (
        <section className="border-b border-slate-100 py-1">
          {anchorInputs(def).map((a) => (
            <AnchorRow key={a.name} nodeId={id} anchor={a} error={errorFor(a.name)} />
          ))}
        </section>
      )}
      {params.length > 0 && (
        <section className="flex flex-col gap-2 px-3 py-2">
          {main.map(paramField)}
          {more.length > 0 && (
            <button
              type="button"
              className="nodrag self-start text-[11px] font-medium text-brand-600 hover:underline"
              aria-expanded={showMore}
              onClick={() => setShowMore((v) => !v)}
            >
              {showMore ? "Hide" : "Show"} additional parameters ({more.length})
            </button>
          )}
          {showMore && more.map(paramField)}
        </section>
      )}
      {storeKindOf(def) && <VectorStoreSlot nodeId={id} />}
      {general.length > 0 && (
        <ul
          className="mx-3 mb-2 space-y-1 rounded-md bg-red-50 px-2 py-1.5 text-[11px] leading-snug text-red-800"
          role="alert"
        >
          {general.map((p) => (
            <li key={p.message}>{p.message}</li>
          ))}
        </ul>
      )}
      <footer className="rounded-b-xl bg-slate-50 py-1">
        {outputs.map((o) => (
          <OutputRow key={o.name} nodeId={id} output={o} />
        ))}
        {step?.loopTarget && <LoopFooter nodeId={id} def={def} />}
      </footer>
    </article>
  );
  return step?.container ? (
    <GroupFrame nodeId={id} label={data.label || def.label}>
      {form}
    </GroupFrame>
  ) : (
    form
  );
});

const CARD_HEADER = 64;
const CARD_ROW = 40;

/** The height of a node's form before it was ever drawn (a generous guess from its definition). */
function estimatedHeight(def: NodeDefinition): number {
  const main = paramInputs(def).filter((p) => !p.additional).length;
  return 56 + anchorInputs(def).length * 40 + main * 58 + def.outputs.length * 36 + 16;
}

/** A node at low zoom: its badge and label in large type, and where its edges attach. */
function NodeCard({
  id,
  def,
  outputs,
  label,
  problems,
  height,
}: {
  id: string;
  def: NodeDefinition;
  outputs: NodeOutput[];
  label: string;
  problems: number;
  height?: number;
}) {
  const style = categoryStyle[def.category];
  const anchors = anchorInputs(def);
  const h = Math.max(height ?? estimatedHeight(def), CARD_HEADER + Math.max(anchors.length, outputs.length) * CARD_ROW);
  return (
    <article
      aria-label={`${label} node`}
      data-node-type={def.name}
      data-detail="card"
      data-invalid={problems ? "true" : undefined}
      // Square corners: at card zoom a rounded corner is a pixel or two on screen, and rasterising
      // 600 of them (card and badge) anew on every zoom frame was a fifth of the frame's raster work.
      className={`w-[264px] border-4 bg-white ${problems ? "border-red-400" : "border-slate-300"}`}
      style={{ height: h }}
    >
      <header className="flex items-center gap-3 px-3 py-3">
        <span className={`grid h-12 w-12 shrink-0 place-items-center text-xl font-bold ${style.badge}`} aria-hidden>
          {style.glyph}
        </span>
        <h3 className="line-clamp-2 text-3xl font-semibold leading-tight text-slate-900">{label}</h3>
      </header>
      {problems > 0 && (
        <p className="px-3 text-2xl font-semibold text-red-700">
          {problems} {problems === 1 ? "issue" : "issues"}
        </p>
      )}
      {anchors.map((a, i) => (
        <CardHandle
          key={a.name}
          type="target"
          nodeId={id}
          handle={handleId(id, a.name, "in")}
          top={CARD_HEADER + (i + 0.5) * CARD_ROW}
        />
      ))}
      {outputs.map((o, i) => (
        <CardHandle
          key={o.name}
          type="source"
          nodeId={id}
          handle={handleId(id, o.name, "out")}
          top={h - (outputs.length - i - 0.5) * CARD_ROW}
        />
      ))}
    </article>
  );
}

/**
 * A card's handle: where its edges attach, not a place to start or end a connection (cards are too
 * small for that; a form, from zoom 0.5, has React Flow's handles). React Flow measures every element
 * of a node with the class `source` or `target` and its data-handleid/-handlepos as a handle, so a
 * plain element serves, without the Handle component's store subscriptions and its CSS transform
 * (each transformed element is one more layer for Chromium to paint and hit-test on every frame of a
 * pan: about a third of a pan frame's main-thread time at the opening zoom of the 300-node flow).
 */
function CardHandle({
  type,
  nodeId,
  handle,
  top,
}: {
  type: "source" | "target";
  nodeId: string;
  handle: string;
  top: number;
}) {
  return (
    <div
      aria-hidden
      data-handleid={handle}
      data-nodeid={nodeId}
      data-handlepos={type === "source" ? Position.Right : Position.Left}
      className={`${type} pointer-events-none absolute h-4 w-4 rounded-full border-2 border-white ${type === "source" ? "-right-2 bg-brand-600" : "-left-2 bg-slate-500"}`}
      style={{ top: top - 8 }}
    />
  );
}

/** The definition's description and each input's help, for the node's info panel. */
function NodeInfo({ def }: { def: NodeDefinition }) {
  return (
    <section
      aria-label="Node info"
      className="nodrag nowheel max-h-72 overflow-y-auto border-b border-slate-100 bg-slate-50 px-3 py-2 text-[11px] leading-snug text-slate-700"
    >
      <p className="text-xs text-slate-800">{def.description}</p>
      {def.inputs.length > 0 && (
        <dl className="mt-2 space-y-1.5">
          {def.inputs.map((i) => (
            <div key={i.name}>
              <dt className="font-semibold text-slate-800">
                {i.label}{" "}
                <span className="font-normal text-slate-500">
                  {i.kind === "anchor" ? `connection: ${i.accepts.join(" | ")}` : i.type}
                  {i.optional ? ", optional" : ""}
                </span>
              </dt>
              <dd className="text-slate-600">{inputHelp(i)}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/** An input's help text: its description, else what can be said from the definition. */
function inputHelp(i: NodeDefinition["inputs"][number]): string {
  if (i.description) return i.description;
  if (i.kind === "anchor") return i.list ? "Connect any number of nodes." : "Connect one node.";
  if (i.options?.length) return `One of: ${i.options.map((o) => o.label).join(", ")}.`;
  if (i.default !== undefined && typeof i.default !== "object") return `Default: ${String(i.default)}.`;
  return "No further help.";
}

const selectDirty = (s: { revision: number; savedRevision: number }) => s.revision !== s.savedRevision;

/** Chunk count, uploads and clearing for a vector or keyword store node of this chatflow. */
function VectorStoreSlot({ nodeId }: { nodeId: string }) {
  const { id } = useParams<{ id: string }>();
  const dirty = useEditorState(selectDirty);
  const savedFiles = useEditorState(useCallback((s) => savedFilesInto(s, nodeId), [nodeId]));
  const { storePanel } = useEditorSlots();
  if (!storePanel) return null;
  return (
    <div className="border-t border-slate-100 px-3 py-2">
      {storePanel({ chatflowId: id, nodeId, dirty, savedFiles })}
    </div>
  );
}

function AnchorRow({ nodeId, anchor, error }: { nodeId: string; anchor: AnchorInput; error?: string }) {
  return (
    <div className="relative px-3 py-1">
      <Handle
        type="target"
        position={Position.Left}
        id={handleId(nodeId, anchor.name, "in")}
        role="img"
        aria-label={`${anchor.label} input`}
        className={`h-3! w-3! border-2! border-white! ${error ? "bg-red-500!" : "bg-slate-500!"}`}
      />
      <p className="text-xs font-medium text-slate-700">
        {anchor.label}
        {!anchor.optional && (
          <span className="text-red-600" aria-hidden>
            {" "}
            *
          </span>
        )}
        {anchor.list && (
          <span className="ml-1 rounded bg-slate-100 px-1 text-[10px] font-normal text-slate-500">many</span>
        )}
      </p>
      <p className="text-[10px] text-slate-400">{anchor.accepts.join(" | ")}</p>
      {error && <p className="text-[11px] leading-snug text-red-700">{error}</p>}
    </div>
  );
}

function OutputRow({ nodeId, output }: { nodeId: string; output: NodeOutput }) {
  return (
    <div className="relative px-3 py-1 text-right">
      <p className="text-xs font-medium text-slate-700">{output.label}</p>
      <p className="text-[10px] text-slate-400">{output.types.join(" | ")}</p>
      <Handle
        type="source"
        position={Position.Right}
        id={handleId(nodeId, output.name, "out")}
        role="img"
        aria-label={`${output.label} output`}
        className="h-3! w-3! border-2! border-white! bg-brand-600!"
      />
    </div>
  );
}
