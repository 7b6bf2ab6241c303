"use client";

import { ReactFlowProvider } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo, useState } from "react";
import { createEditorStore } from "@/browser/canvas/editor-store";
import type { RunPath } from "@/common/agentflow/run-path";
import { nodeCatalog } from "@/common/nodes/catalog";
import type { NodeDefinition } from "@/common/nodes/types";
import { ErrorNote } from "@/components/ui/controls";
import { Canvas } from "./Canvas";
import { EditorProvider } from "./editor-context";
import { loadInto } from "./load-graph";
import { type RunOverlay, RunOverlayProvider } from "./RunOverlay";

/** What the Executions view gives the canvas of a run (its slot). */
export interface RunCanvasProps {
  /** The saved graph the run ran. */
  graph: unknown;
  definitions: readonly NodeDefinition[];
  path: RunPath;
  selected: string | null;
  onSelect: (nodeId: string) => void;
}

const noop = () => {};

/**
 * A run's path lit on the editor's canvas, read-only: each step a card with its status in the run,
 * the edges taken drawn apart from the others; a click (or Enter on a step's button) selects a step.
 * A new `graph` needs a new component (key it by the version shown).
 */
export function RunCanvas(props: RunCanvasProps) {
  return (
    <ReactFlowProvider>
      <RunCanvasBody {...props} />
    </ReactFlowProvider>
  );
}

function RunCanvasBody({ graph, definitions, path, selected, onSelect }: RunCanvasProps) {
  const [store] = useState(() => createEditorStore(nodeCatalog(definitions)));
  const [loaded] = useState(() => loadInto(store, graph));
  const overlay = useMemo<RunOverlay>(
    () => ({ nodes: path.nodes, edges: path.edges, selected, onShow: onSelect }),
    [path, selected, onSelect],
  );
  return (
    <EditorProvider value={store}>
      <ErrorNote error={loaded.error ? new Error(loaded.error) : null} />
      <RunOverlayProvider value={overlay}>
        <div
          className="h-[420px] overflow-hidden rounded-lg bg-slate-50 ring-1 ring-slate-200 lg:h-[560px]"
          data-testid="run-canvas"
        >
          <Canvas onRefused={noop} onAdd={noop} readOnly />
        </div>
      </RunOverlayProvider>
    </EditorProvider>
  );
}
