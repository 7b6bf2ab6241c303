"use client";

import {
  type Edge,
  type Node,
  type ReactFlowInstance,
  type ReactFlowState,
  useNodesInitialized,
  useReactFlow,
  useStoreApi,
} from "@xyflow/react";
import { useCallback, useLayoutEffect, useRef } from "react";
import { openingViewport } from "@/browser/canvas/opening-view";
import type { EditorEdge, EditorNode } from "@/browser/canvas/types";

/** Shows the flow at a readable zoom in the canvas as it is now (see openingViewport). */
export function showReadable<N extends Node, E extends Edge>(
  rf: ReactFlowInstance<N, E>,
  state: () => Pick<ReactFlowState, "width" | "height">,
) {
  // Steps inside a group sit relative to it: the top level bounds the flow.
  const nodes = rf.getNodes().filter((n) => !n.parentId);
  if (nodes.length === 0) return;
  const { width, height } = state();
  void rf.setViewport(openingViewport(rf.getNodesBounds(nodes), { width, height }));
}

/**
 * Once the nodes of a flow opened without a saved view are measured, shows it at a readable zoom
 * (once). Answers the same move for later use (after a layout on open).
 */
export function useOpeningView(enabled: boolean) {
  const rf = useReactFlow<EditorNode, EditorEdge>();
  const flow = useStoreApi<EditorNode, EditorEdge>();
  const measured = useNodesInitialized();
  const pending = useRef(enabled);
  const show = useCallback(() => showReadable(rf, flow.getState), [rf, flow]);
  // Before the browser paints the measured nodes: no frame at the default view first.
  useLayoutEffect(() => {
    if (!pending.current || !measured) return;
    pending.current = false;
    show();
  }, [measured, show]);
  return show;
}
