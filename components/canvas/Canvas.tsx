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
  useStore,
  useStoreApi,
  type EdgeChange,
  type FinalConnectionState,
  type NodeChange,
  type Viewport,
} from "@xyflow/react";
import {
  type DragEvent,
  type KeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type RefObject,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { loopBackEdges, loopPairs } from "@/browser/canvas/agentflow";
import { connectionProblem } from "@/browser/canvas/connection";
import { edgeIdFor } from "@/browser/canvas/ids";
import { autoLayout, findOverlaps, nodeBox } from "@/browser/canvas/layout";
import type { ConnectionLike, EditorEdge, EditorNode } from "@/browser/canvas/types";
import { CanvasMenu, type CanvasMenuItem, type CanvasMenuState } from "./CanvasMenu";
import { CanvasNotes } from "./CanvasNotes";
import { CardEdges } from "./CardEdges";
import { useEditorState, useEditorStore } from "./editor-context";
import { FlowNode, LOW_DETAIL_MIN_NODES, LOW_DETAIL_ZOOM, selectLowDetail } from "./FlowNode";
import { PALETTE_MIME } from "./Palette";
import { runEdges, useRunOverlay } from "./RunOverlay";
import type { EditorActions } from "./use-editor-actions";
import { useOpeningView } from "./use-opening-view";

/** The editor commands the canvas's right-click menu offers. */
export type CanvasCommands = Pick<
  EditorActions,
  "copy" | "paste" | "canPaste" | "duplicate" | "deleteSelected" | "addNote"
>;
/** Room the menu needs inside the canvas (pixels), so it opens wholly in view. */
const MENU_ROOM = { width: 200, height: 140 };

const nodeTypes = { flowNode: FlowNode };
const viewOnly = new Set(["select", "dimensions"]);
const deleteKeys = ["Backspace", "Delete"];
const selectNodes = (s: { nodes: EditorNode[] }) => s.nodes;
const selectEdges = (s: { edges: EditorEdge[] }) => s.edges;
const noEdges: EditorEdge[] = [];
const multiSelectKeys = ["Meta", "Control", "Shift"];
// Options React Flow keeps in its store: new objects on every render of Canvas (once per frame of a
// node drag) would re-render every edge (each reads defaultEdgeOptions) and re-arm key listeners.
const defaultEdgeOptions = { style: { strokeWidth: 2, stroke: "#64748b" } };
const connectionLineStyle = { strokeWidth: 2, stroke: "#2563eb" };
const fitViewOptions = { padding: 0.2, maxZoom: 1 };
const proOptions = { hideAttribution: true };
const onDragOver = (e: DragEvent) => {
  e.preventDefault();
  e.dataTransfer.dropEffect = "move";
};
/** Where the cursor sits on a dropped node (flow units from its top left): on its header. */
const DROP_OFFSET = { x: 24, y: 18 };

/**
 * After a load or an import, once the browser measured every node it drew (React Flow draws only
 * those in view): if any two of them overlap (positions saved for other node sizes, or kept from a
 * Flowise export), lay the flow out again from the measured sizes and fit it into view. A large flow
 * opened as a map (cards at low zoom, see FlowNode) keeps its saved positions: cards are not the
 * size of the forms, so their overlap says nothing.
 */
function useLayoutOnOpen(nodes: EditorNode[], container: RefObject<HTMLDivElement | null>, show: () => void) {
  const store = useEditorStore();
  const flow = useStoreApi();
  useEffect(() => {
    const s = store.getState();
    if (!s.layoutCheck || !container.current) return;
    if (selectLowDetail(flow.getState())) return store.layoutChecked();
    const measured = nodes.filter((n) => n.measured?.width && n.measured?.height);
    const drawn = [...container.current.querySelectorAll<HTMLElement>(".react-flow__node")];
    const ids = new Set(measured.map((n) => n.id));
    if (measured.length === 0 || !drawn.every((el) => ids.has(el.dataset.id ?? ""))) return;
    store.layoutChecked();
    // Steps inside a group sit relative to it: only the top level can overlap.
    if (findOverlaps(measured.filter((n) => !n.parentId).map(nodeBox), 8).length === 0) return;
    store.setNodes(autoLayout(nodes, s.edges), { content: false });
    requestAnimationFrame(show);
  }, [nodes, store, flow, container, show]);
}

/** React Flow, controlled by the editor store. */
export function Canvas({
  onRefused,
  onAdd,
  commands,
  viewport,
  readOnly = false,
}: {
  onRefused: (why: string) => void;
  onAdd: (defName: string, at: { x: number; y: number }) => void;
  /** The right-click menu's commands; without them (or read-only) there is no menu. */
  commands?: CanvasCommands;
  viewport?: Viewport;
  /** An old version on view: nothing can be selected, moved, connected, deleted or dropped. */
  readOnly?: boolean;
}) {
  const store = useEditorStore();
  const nodes = useEditorState(selectNodes);
  const saved = useEditorState(selectEdges);
  // A Loop's back edge is drawn from its param, beside the saved edges (never saved itself).
  const loops = useEditorState(useCallback((s) => loopPairs(s.nodes, store.catalog.get), [store]));
  // A run on view (the Executions view) draws the edges it went along apart from the others.
  const run = useRunOverlay();
  const edges = useMemo(() => {
    const all = loops ? [...saved, ...loopBackEdges(loops)] : saved;
    return run ? runEdges(all, run) : all;
  }, [saved, loops, run]);
  const rf = useReactFlow();
  const lowDetail = useStore(selectLowDetail);
  // Fit the first nodes into view only when there are some: fitting an empty canvas waits for the
  // first dropped node and then moves the view away from where it was dropped. A large flow opens
  // whole, as a map of cards; any other at a zoom where its text is readable (useOpeningView).
  const [fitOnOpen] = useState(() => !viewport && nodes.length > 0);
  const [mapOnOpen] = useState(() => fitOnOpen && nodes.length >= LOW_DETAIL_MIN_NODES);
  const showReadable = useOpeningView(fitOnOpen && !mapOnOpen);
  // A large flow without a saved view is fitted once its nodes are measured: start below the card
  // zoom, so its first drawing is cards rather than hundreds of forms drawn once and dropped.
  const [startView] = useState(
    () => viewport ?? (nodes.length >= LOW_DETAIL_MIN_NODES ? { x: 0, y: 0, zoom: LOW_DETAIL_ZOOM / 2 } : undefined),
  );
  const container = useRef<HTMLDivElement>(null);
  useLayoutOnOpen(nodes, container, showReadable);

  const onNodesChange = useCallback(
    (changes: NodeChange<EditorNode>[]) => {
      store.setNodes(applyNodeChanges(changes, store.getState().nodes), {
        content: changes.some((c) => !viewOnly.has(c.type)),
      });
      // A removed node takes its edges along (React Flow does it for the edges it knows; as cards
      // it knows none, see CardEdges).
      const removed = new Set(changes.flatMap((c) => (c.type === "remove" ? [c.id] : [])));
      if (removed.size === 0) return;
      const { edges } = store.getState();
      const kept = edges.filter((e) => !removed.has(e.source) && !removed.has(e.target));
      if (kept.length !== edges.length) store.setEdges(kept, { content: true });
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
      store.touch([c.source, c.target]);
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
      if (!defName || readOnly) return;
      e.preventDefault();
      // The cursor lands on the new node's header (near its top left corner), where it was dropped.
      const at = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      onAdd(defName, { x: at.x - DROP_OFFSET.x, y: at.y - DROP_OFFSET.y });
    },
    [rf, onAdd, readOnly],
  );

  const onNodeClick = useCallback((_: unknown, node: EditorNode) => run?.onShow(node.id), [run]);

  // The right-click menu: on a node (or a selection) copy, duplicate, delete; on the empty canvas
  // paste and add a note, at the spot clicked. Shift+F10 or the menu key open it from the keyboard.
  const [menu, setMenu] = useState<CanvasMenuState | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const menuOn = !readOnly && !!commands;
  const openMenu = useCallback(
    (client: { x: number; y: number }, target: { nodeId: string } | "selection" | "pane") => {
      const el = container.current;
      if (!commands || !el) return;
      const r = el.getBoundingClientRect();
      const x = Math.max(0, Math.min(client.x - r.left, r.width - MENU_ROOM.width));
      const y = Math.max(0, Math.min(client.y - r.top, r.height - MENU_ROOM.height));
      if (target === "pane") {
        const at = rf.screenToFlowPosition(client);
        const items: CanvasMenuItem[] = [{ label: "Add note", onSelect: () => commands.addNote(at) }];
        if (commands.canPaste()) items.unshift({ label: "Paste", hint: "Ctrl+V", onSelect: () => commands.paste(at) });
        return setMenu({ x, y, label: "Canvas actions", items });
      }
      // A right-click on a node outside the selection acts on that node alone, as in Flowise.
      if (target !== "selection" && !store.getState().nodes.find((n) => n.id === target.nodeId)?.selected)
        store.select([target.nodeId]);
      setMenu({
        x,
        y,
        label: "Node actions",
        items: [
          { label: "Copy", hint: "Ctrl+C", onSelect: () => commands.copy() },
          { label: "Duplicate", hint: "Ctrl+D", onSelect: () => commands.duplicate() },
          { label: "Delete", hint: "Del", danger: true, onSelect: () => commands.deleteSelected() },
        ],
      });
    },
    [commands, rf, store],
  );
  const onNodeContextMenu = useCallback(
    (e: ReactMouseEvent, node: EditorNode) => {
      e.preventDefault();
      openMenu({ x: e.clientX, y: e.clientY }, { nodeId: node.id });
    },
    [openMenu],
  );
  const onSelectionContextMenu = useCallback(
    (e: ReactMouseEvent) => {
      e.preventDefault();
      openMenu({ x: e.clientX, y: e.clientY }, "selection");
    },
    [openMenu],
  );
  const onPaneContextMenu = useCallback(
    (e: ReactMouseEvent | MouseEvent) => {
      e.preventDefault();
      openMenu({ x: e.clientX, y: e.clientY }, "pane");
    },
    [openMenu],
  );
  const onMenuKey = useCallback(
    (e: KeyboardEvent<HTMLDivElement>) => {
      if (e.key !== "ContextMenu" && !(e.shiftKey && e.key === "F10")) return;
      const target = e.target as HTMLElement;
      if (target.closest("input, textarea, select, [contenteditable], [role='menu']")) return;
      e.preventDefault();
      const nodeEl = target.closest<HTMLElement>(".react-flow__node");
      if (nodeEl?.dataset.id) {
        const r = nodeEl.getBoundingClientRect();
        return openMenu({ x: r.left + 24, y: r.top + 24 }, { nodeId: nodeEl.dataset.id });
      }
      const r = container.current!.getBoundingClientRect();
      openMenu({ x: r.left + r.width / 2, y: r.top + r.height / 3 }, "pane");
    },
    [openMenu],
  );

  const dark = useDarkMode();
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the keys open the canvas menu for what has the focus inside (a node or the canvas)
    <div
      ref={container}
      className="relative h-full w-full"
      data-testid="canvas"
      onKeyDown={menuOn ? onMenuKey : undefined}
    >
      <ReactFlow<EditorNode, EditorEdge>
        onDragOver={onDragOver}
        onDrop={onDrop}
        nodes={nodes}
        // A large flow as cards: its edges are drawn by CardEdges, React Flow gets none.
        edges={lowDetail ? noEdges : edges}
        nodeTypes={nodeTypes}
        // A large flow with its forms shown: only the nodes and edges in view are drawn (a small one
        // keeps all in the DOM). As cards (below zoom 0.5) all stay drawn: a pan at that zoom brings
        // dozens of nodes in and out of view per second, and mounting them (React, then a
        // ResizeObserver round each) cost more per frame than drawing 300 cards.
        onlyRenderVisibleElements={nodes.length >= LOW_DETAIL_MIN_NODES && !lowDetail}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onNodeClick={run ? onNodeClick : undefined}
        onNodeContextMenu={menuOn ? onNodeContextMenu : undefined}
        onSelectionContextMenu={menuOn ? onSelectionContextMenu : undefined}
        onPaneContextMenu={menuOn ? onPaneContextMenu : undefined}
        onMoveStart={menu ? closeMenu : undefined}
        onConnectEnd={onConnectEnd}
        isValidConnection={isValidConnection}
        onBeforeDelete={onBeforeDelete}
        onNodeDragStart={onDragStart}
        onSelectionDragStart={onDragStart}
        deleteKeyCode={readOnly ? null : deleteKeys}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        elementsSelectable={!readOnly}
        edgesReconnectable={!readOnly}
        multiSelectionKeyCode={multiSelectKeys}
        selectionKeyCode="Shift"
        defaultViewport={startView}
        fitView={mapOnOpen}
        fitViewOptions={fitViewOptions}
        minZoom={0.1}
        maxZoom={2}
        defaultEdgeOptions={defaultEdgeOptions}
        connectionLineStyle={connectionLineStyle}
        proOptions={proOptions}
        colorMode={dark ? "dark" : "light"}
      >
        {/* No dots under cards: at the opening zoom of a large flow they are 2 px apart, a grey wash that
            cost as much to rasterise on every pan frame as the 300 cards. */}
        {!lowDetail && (
          <Background variant={BackgroundVariant.Dots} gap={18} size={1.2} color={dark ? "#334155" : "#cbd5e1"} />
        )}
        {lowDetail && <CardEdges edges={edges} />}
        <CanvasNotes readOnly={readOnly} />
        <Controls showInteractive={false} position="bottom-left" />
        {/* Cards show the whole map already; below the card zoom a large flow has no minimap (it
            re-rendered its 300 nodes' viewBox on every pan, zoom and drag frame). */}
        {!lowDetail && (
          <MiniMap
            position="bottom-right"
            pannable
            zoomable
            ariaLabel="Mini map"
            nodeColor="#c7d2fe"
            nodeStrokeColor="#6366f1"
            maskColor={dark ? "rgba(2,6,23,0.7)" : "rgba(241,245,249,0.7)"}
          />
        )}
      </ReactFlow>
      {menu && <CanvasMenu key={`${menu.label}@${menu.x},${menu.y}`} menu={menu} onClose={closeMenu} />}
      {nodes.length === 0 && (
        <div className="pointer-events-none absolute inset-0 grid place-items-center">
          <div className="max-w-xs rounded-xl border border-dashed border-slate-300 bg-white/80 px-6 py-5 text-center">
            <p className="text-sm font-medium text-slate-700">Start your flow</p>
            <p className="mt-1 text-xs text-slate-500">
              {store.catalog.definitions.some((d) => d.capabilities?.agentflow?.role === "start")
                ? "Drag a Start node from the palette, then the steps after it, and connect outputs (right) to inputs (left)."
                : "Drag a chat model, a chain or an agent from the palette, then connect outputs (right) to inputs (left)."}
            </p>
          </div>
        </div>
      )}
    </div>
  );
}
