"use client";

import { useReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import { duplicateSelection } from "@/browser/canvas/duplicate";
import { editorToGraph, graphToEditor } from "@/browser/canvas/graph-convert";
import { nextNodeId } from "@/browser/canvas/ids";
import { exportFileName, exportFileText, parseImportFile } from "@/browser/canvas/import-export";
import { autoLayout, DEFAULT_SIZE, freeSpot, nodeBox } from "@/browser/canvas/layout";
import type { EditorEdge, EditorNode } from "@/browser/canvas/types";
import { useEditorStore } from "./editor-context";
import type { PushToast } from "./Toasts";

/** The editor's commands, shared by the toolbar, the palette and the keyboard shortcuts. */
export function useEditorActions(toast: PushToast) {
  const store = useEditorStore();
  const rf = useReactFlow<EditorNode, EditorEdge>();
  return useMemo(() => {
    const currentGraph = () => {
      const { nodes, edges, notes } = store.getState();
      return editorToGraph(nodes, edges, rf.getViewport(), notes);
    };
    const fit = () => rf.fitView({ padding: 0.2, maxZoom: 1, duration: 200 });
    return {
      currentGraph,
      fit,
      undo: () => store.undo(),
      redo: () => store.redo(),
      /**
       * Adds a node at a flow position (drop) or, without one (palette click or keyboard), near the
       * middle of the visible canvas on a spot no other node covers.
       */
      addNode(defName: string, at?: { x: number; y: number }) {
        const def = store.catalog.get(defName);
        if (!def) return;
        const el = document.querySelector(".react-flow")?.getBoundingClientRect();
        const pos =
          at ??
          freeSpot(
            store.getState().nodes.map(nodeBox),
            DEFAULT_SIZE,
            rf.screenToFlowPosition({
              x: (el?.left ?? 0) + (el?.width ?? 800) / 2 - 130,
              y: (el?.top ?? 0) + (el?.height ?? 600) / 3,
            }),
          );
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
      },
      deleteSelected() {
        const { nodes, edges } = store.getState();
        const sel = { nodes: nodes.filter((n) => n.selected), edges: edges.filter((e) => e.selected) };
        if (sel.nodes.length + sel.edges.length === 0) return toast("info", "Select a node or a connection to delete.");
        void rf.deleteElements(sel);
      },
      duplicate() {
        if (!store.getState().nodes.some((n) => n.selected)) return toast("info", "Select the nodes to duplicate.");
        store.commit((s) => duplicateSelection(s.nodes, s.edges));
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
  }, [store, rf, toast]);
}

export type EditorActions = ReturnType<typeof useEditorActions>;
