"use client";

import { useDarkMode } from "@/components/ui/use-dark-mode";
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type EdgeChange,
  type FinalConnectionState,
  type NodeChange,
  type Viewport,
} from "@xyflow/react";
import { useCallback, type DragEvent } from "react";
import { connectionProblem } from "@/lib/canvas/connection";
import { edgeIdFor } from "@/lib/canvas/ids";
import type { ConnectionLike, EditorEdge, EditorNode } from "@/lib/canvas/types";
import { CanvasNotes } from "./CanvasNotes";
import { useEditorState, useEditorStore } from "./editor-context";
import { FlowNode } from "./FlowNode";
import { PALETTE_MIME } from "./Palette";

const nodeTypes = { flowNode: FlowNode };
const viewOnly = new Set(["select", "dimensions"]);
const deleteKeys = ["Backspace", "Delete"];
const selectNodes = (s: { nodes: EditorNode[] }) => s.nodes;
const selectEdges = (s: { edges: EditorEdge[] }) => s.edges;

/** React Flow, controlled by the editor store. */
export function Canvas({
  onRefused,
  onAdd,
  viewport,
}: {
  onRefused: (why: string) => void;
  onAdd: (defName: string, at: { x: number; y: number }) => void;
  viewport?: Viewport;
}) {
  const store = useEditorStore();
  const nodes = useEditorState(selectNodes);
  const edges = useEditorState(selectEdges);
  const rf = useReactFlow();

  const onNodesChange = useCallback(
    (changes: NodeChange<EditorNode>[]) => {
      store.setNodes(applyNodeChanges(changes, store.getState().nodes), {
        content: changes.some((c) => !viewOnly.has(c.type)),
      });
    },
    [store],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<EditorEdge>[]) => {
      store.setEdges(applyEdgeChanges(changes, store.getState().edges), {
        content: changes.some((c) => c.type !== "select"),
      });
    },
    [store],
  );
  const isValidConnection = useCallback(
    (c: ConnectionLike) => {
      const s = store.getState();
      return connectionProblem(c, s.nodes, s.edges, store.catalog.get) === null;
    },
    [store],
  );
  const onConnect = useCallback(
    (c: ConnectionLike) => {
      const s = store.getState();
      if (connectionProblem(c, s.nodes, s.edges, store.catalog.get) !== null) return;
      const edge = {
        id: edgeIdFor(c.sourceHandle!, c.targetHandle!),
        source: c.source,
        target: c.target,
        sourceHandle: c.sourceHandle!,
        targetHandle: c.targetHandle!,
      };
      store.commit((g) => ({ ...g, edges: [...g.edges, edge] }));
    },
    [store],
  );
  // A refused drop on a handle says why, instead of silently snapping back.
  const onConnectEnd = useCallback(
    (_: unknown, cs: FinalConnectionState) => {
      if (cs.isValid !== false || !cs.fromHandle || !cs.toHandle) return;
      const [from, to] = cs.fromHandle.type === "source" ? [cs.fromHandle, cs.toHandle] : [cs.toHandle, cs.fromHandle];
      const s = store.getState();
      const why = connectionProblem(
        { source: from.nodeId, sourceHandle: from.id, target: to.nodeId, targetHandle: to.id },
        s.nodes,
        s.edges,
        store.catalog.get,
      );
      onRefused(why ?? "These handles cannot be connected.");
    },
    [store, onRefused],
  );
  const onBeforeDelete = useCallback(async () => {
    store.checkpoint();
    return true;
  }, [store]);
  const onDragStart = useCallback(() => store.checkpoint(), [store]);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const defName = e.dataTransfer.getData(PALETTE_MIME);
      if (!defName) return;
      e.preventDefault();
      onAdd(defName, rf.screenToFlowPosition({ x: e.clientX, y: e.clientY }));
    },
    [rf, onAdd],
  );

  const dark = useDarkMode();
  return (
    <div className="relative h-full w-full" data-testid="canvas">
      <ReactFlow<EditorNode, EditorEdge>
        onDragOver={(e) => {
          e.preventDefault();
          e.dataTransfer.dropEffect = "move";
        }}
        onDrop={onDrop}
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        onBeforeDelete={onBeforeDelete}
        onNodeDragStart={onDragStart}
        onSelectionDragStart={onDragStart}
        deleteKeyCode={deleteKeys}
        multiSelectionKeyCode={["Meta", "Control", "Shift"]}
        selectionKeyCode="Shift"
        defaultViewport={viewport}
        fitView={!viewport}
        fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
        minZoom={0.1}
        maxZoom={2}
        defaultEdgeOptions={{ style: { strokeWidth: 2, stroke: "#64748b" } }}
        connectionLineStyle={{ strokeWidth: 2, stroke: "#2563eb" }}
        proOptions={{ hideAttribution: true }}
        colorMode={dark ? "dark" : "light"}
      >
        <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} color={dark ? "#334155" : "#cbd5e1"} />
        <CanvasNotes />
        <Controls showInteractive={false} position="bottom-left" />
        <MiniMap
          position="bottom-right"
          pannable
          zoomable
          ariaLabel="Mini map"
          nodeColor="#c7d2fe"
          nodeStrokeColor="#6366f1"
          maskColor={dark ? "rgba(2,6,23,0.7)" : "rgba(241,245,249,0.7)"}
        />
      </ReactFlow>
      {nodes.length === 0 && (
        <div className="pointer-events-none absolute inset-0 grid place-items-center">
          <div className="max-w-xs rounded-xl border border-dashed border-slate-300 bg-white/80 px-6 py-5 text-center">
            <p className="text-sm font-medium text-slate-700">Start your flow</p>
            <p className="mt-1 text-xs text-slate-500">
              Drag a chat model, a chain or an agent from the palette, then connect outputs (right) to inputs (left).
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
