"use client";

import { useReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import {
  CLIPBOARD_KEY,
  type ClipboardNodes,
  clipboardBounds,
  copySelection,
  parseClipboard,
  pasteNodes,
} from "@/browser/canvas/clipboard";
import { editorToGraph, graphToEditor } from "@/browser/canvas/graph-convert";
import { nextNodeId } from "@/browser/canvas/ids";
import { exportFileName, exportFileText, parseImportFile } from "@/browser/canvas/import-export";
import {
  autoLayout,
  type Box,
  boxesOverlap,
  boxInside,
  DEFAULT_SIZE,
  freeSpot,
  nodeBox,
} from "@/browser/canvas/layout";
import type { EditorEdge, EditorNode } from "@/browser/canvas/types";
import { useEditorStore } from "./editor-context";
import type { PushToast } from "./Toasts";

/** Space kept between a placed node and the edge of the view (screen pixels). */
const VIEW_MARGIN = 16;
/** A sticky note's size on the canvas (CanvasNotes draws it 224 px wide). */
const NOTE_SIZE = { width: 224, height: 120 };

/** The box around `boxes`. */
function bounds(boxes: Omit<Box, "id">[]): Omit<Box, "id"> {
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return {
    x,
    y,
    width: Math.max(...boxes.map((b) => b.x + b.width)) - x,
    height: Math.max(...boxes.map((b) => b.y + b.height)) - y,
  };
}

/** The editor's commands, shared by the toolbar, the palette, the canvas menu and the keyboard shortcuts. */
export function useEditorActions(toast: PushToast) {
  const store = useEditorStore();
  const rf = useReactFlow<EditorNode, EditorEdge>();
  return useMemo(() => {
    const currentGraph = () => {
      const { nodes, edges, notes } = store.getState();
      return editorToGraph(nodes, edges, rf.getViewport(), notes);
    };
    const fit = () => rf.fitView({ padding: 0.2, maxZoom: 1, duration: 200 });
    /** The part of the flow in view (flow units), a margin inside the canvas's edges. */
    const visibleArea = (): Omit<Box, "id"> => {
      const el = document.querySelector(".react-flow")?.getBoundingClientRect();
      const r = { left: el?.left ?? 0, top: el?.top ?? 0, right: el?.right ?? 800, bottom: el?.bottom ?? 600 };
      const tl = rf.screenToFlowPosition({ x: r.left + VIEW_MARGIN, y: r.top + VIEW_MARGIN });
      const br = rf.screenToFlowPosition({ x: r.right - VIEW_MARGIN, y: r.bottom - VIEW_MARGIN });
      return { x: tl.x, y: tl.y, width: Math.max(0, br.x - tl.x), height: Math.max(0, br.y - tl.y) };
    };
    /**
     * Where something of `size` goes when no place was pointed at: in the view, a third of the way
     * down its middle, on a spot no node covers (inside the view when there is one).
     */
    const placeInView = (size: { width: number; height: number }) => {
      const view = visibleArea();
      const start = {
        x: view.x + Math.max(0, (view.width - size.width) / 2),
        y: view.y + Math.max(0, Math.min(view.height / 3 - size.height / 4, view.height - size.height)),
      };
      return freeSpot(store.getState().nodes.map(nodeBox), size, start, 24, view);
    };
    /**
     * Once the new nodes `ids` are drawn and measured: if one turned out larger than guessed and now
     * covers a neighbour, they move to a free spot (within the same undo step); then the view pans
     * (never zooms) the least that shows them whole, so a new node is never left cut off or outside.
     */
    const settle = (ids: string[], frames = 0) =>
      requestAnimationFrame(() => {
        const fresh = new Set(ids);
        const s = store.getState();
        const mine = s.nodes.filter((n) => fresh.has(n.id));
        if (mine.length === 0) return;
        // Measured within a frame or two of being drawn; a few more frames at most.
        if (frames < 8 && (frames < 1 || mine.some((n) => !n.measured?.width))) return settle(ids, frames + 1);
        const view = visibleArea();
        const own = mine.map(nodeBox);
        let box = bounds(own);
        const others = s.nodes.filter((n) => !fresh.has(n.id) && !n.parentId).map(nodeBox);
        if (own.some((a) => others.some((b) => boxesOverlap(a, b)))) {
          const spot = freeSpot(others, box, box, 24, view);
          const dx = spot.x - box.x;
          const dy = spot.y - box.y;
          store.setNodes(
            s.nodes.map((n) =>
              fresh.has(n.id) ? { ...n, position: { x: n.position.x + dx, y: n.position.y + dy } } : n,
            ),
            { content: true },
          );
          box = { ...box, ...spot };
        }
        if (boxInside(box, view)) return;
        // The least pan that shows it; a box larger than the view shows its top left.
        const shift = (start: number, size: number, vStart: number, vSize: number) =>
          size > vSize || start < vStart ? vStart - start : Math.min(0, vStart + vSize - (start + size));
        const v = rf.getViewport();
        void rf.setViewport(
          {
            x: v.x + shift(box.x, box.width, view.x, view.width) * v.zoom,
            y: v.y + shift(box.y, box.height, view.y, view.height) * v.zoom,
            zoom: v.zoom,
          },
          { duration: 200 },
        );
      });
    const readClipboard = () => {
      try {
        return parseClipboard(localStorage.getItem(CLIPBOARD_KEY));
      } catch {
        return null;
      }
    };
    /**
     * Adds copies of `clip`'s nodes with fresh ids, selected, as one undo step: at `at` (the canvas
     * menu's spot), else beside the originals when that is in view, else in the middle of the view;
     * always on a spot free of other nodes.
     */
    const placeCopies = (clip: ClipboardNodes, at?: { x: number; y: number }) => {
      const copied = clipboardBounds(clip);
      const view = visibleArea();
      const beside = { ...copied, x: copied.x + 40, y: copied.y + 40 };
      const start = at ?? (boxInside(beside, view) ? beside : undefined);
      const spot = start ? freeSpot(store.getState().nodes.map(nodeBox), copied, start, 24, view) : placeInView(copied);
      const s = store.getState();
      const r = pasteNodes(clip, s.nodes, s.edges, spot, (d) => !!store.catalog.get(d));
      if (r.pasted.length === 0) return r;
      store.commit(() => ({ nodes: r.nodes, edges: r.edges }));
      settle(r.pasted);
      return r;
    };
    const actions = {
      currentGraph,
      fit,
      undo: () => store.undo(),
      redo: () => store.redo(),
      /**
       * Adds a node at a flow position (drop) or, without one (palette click or keyboard), inside the
       * visible canvas on a spot no other node covers.
       */
      addNode(defName: string, at?: { x: number; y: number }) {
        const def = store.catalog.get(defName);
        if (!def) return;
        // A node of the same kind on the canvas tells its size better than the default guess.
        const twin = store.getState().nodes.find((n) => n.data.defName === defName && n.measured?.width);
        const pos =
          at ?? placeInView(twin ? { width: nodeBox(twin).width, height: nodeBox(twin).height } : DEFAULT_SIZE);
        const id = nextNodeId(
          defName,
          store.getState().nodes.map((n) => n.id),
        );
        const node: EditorNode = {
          id,
          type: "flowNode",
          position: pos,
          selected: true,
          data: { defName, version: def.version, inputs: {} },
        };
        store.addNode(node);
        if (!at) settle([id]);
      },
      /** Whether the clipboard holds nodes (the canvas menu offers Paste only then). */
      canPaste: () => readClipboard() !== null,
      /** Copies the selected nodes and the edges between them; they paste into this flow or another. */
      copy({ quiet = false } = {}) {
        const { nodes, edges } = store.getState();
        const clip = copySelection(nodes, edges);
        if (!clip) return quiet || toast("info", "Select the nodes to copy.");
        try {
          localStorage.setItem(CLIPBOARD_KEY, JSON.stringify(clip));
        } catch {
          return toast("error", "Could not copy: the browser refused to store the copied nodes.");
        }
        toast("success", clip.nodes.length === 1 ? "Copied 1 node." : `Copied ${clip.nodes.length} nodes.`);
      },
      /** Pastes the copied nodes (see placeCopies), from this flow or another. */
      paste(at?: { x: number; y: number }) {
        const clip = readClipboard();
        if (!clip) return toast("info", "Nothing to paste: copy nodes first (Ctrl+C).");
        const r = placeCopies(clip, at);
        if (r.pasted.length === 0)
          return toast("error", `Cannot paste here: this flow has no ${r.skipped.join(", ")} nodes.`);
        if (r.skipped.length) toast("info", `Left out nodes this flow cannot hold: ${r.skipped.join(", ")}.`);
      },
      /**
       * Adds a sticky note at `at` (or in view): an agentflow's Sticky Note step where the flow kind has
       * one, else a canvas note. Its text field takes the focus.
       */
      addNote(at?: { x: number; y: number }) {
        if (store.catalog.get("stickyNoteAgentflow")) return actions.addNode("stickyNoteAgentflow", at);
        const taken = new Set(store.getState().notes.map((n) => n.id));
        let i = taken.size;
        while (taken.has(`note_${i}`)) i++;
        const id = `note_${i}`;
        const position = at ?? placeInView(NOTE_SIZE);
        store.addNote({ id, position, text: "" });
        requestAnimationFrame(() =>
          document
            .querySelector<HTMLTextAreaElement>(`[data-note-id="${id}"] textarea`)
            ?.focus({ preventScroll: true }),
        );
      },
      deleteSelected() {
        const { nodes, edges } = store.getState();
        const sel = { nodes: nodes.filter((n) => n.selected), edges: edges.filter((e) => e.selected) };
        if (sel.nodes.length + sel.edges.length === 0) return toast("info", "Select a node or a connection to delete.");
        void rf.deleteElements(sel);
      },
      /** Copies of the selected nodes beside them (on a free spot, in view), as one undo step. */
      duplicate() {
        const { nodes, edges } = store.getState();
        const clip = copySelection(nodes, edges);
        if (!clip) return toast("info", "Select the nodes to duplicate.");
        placeCopies(clip);
      },
      layout() {
        store.commit((s) => ({ ...s, nodes: autoLayout(s.nodes, s.edges) }));
        // Fit, but not below a readable zoom: a large flow is then panned, not shrunk to dots.
        requestAnimationFrame(() => void rf.fitView({ padding: 0.2, maxZoom: 1, minZoom: 0.4, duration: 200 }));
      },
      /** Downloads the canvas; `extra` names its saved version and optionally all versions. */
      exportFile(name: string, extra: Parameters<typeof exportFileText>[2] = {}) {
        const blob = new Blob([exportFileText(name, currentGraph(), extra)], { type: "application/json" });
        const a = Object.assign(document.createElement("a"), {
          href: URL.createObjectURL(blob),
          download: exportFileName(name),
        });
        a.click();
        setTimeout(() => URL.revokeObjectURL(a.href), 1000);
      },
      async importFile(file: File) {
        const result = parseImportFile(await file.text(), store.catalog.get);
        if (!result.ok) return toast("error", `Import failed: ${result.message}`);
        const { nodes, edges, notes } = graphToEditor(result.graph);
        store.load(nodes, edges, false, notes);
        requestAnimationFrame(fit);
        toast(
          "success",
          `Imported ${nodes.length} nodes and ${edges.length} connections from ${file.name}. Save to keep them.`,
        );
      },
    };
    return actions;
  }, [store, rf, toast]);
}

export type EditorActions = ReturnType<typeof useEditorActions>;
