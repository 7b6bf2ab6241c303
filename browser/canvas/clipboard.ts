import { z } from "zod";
import { cloneNodes, type EdgeSource, type NodeSource } from "./duplicate";
import type { Box } from "./layout";
import { nodeBox } from "./layout";
import type { EditorEdge, EditorNode } from "./types";

/**
 * Copy and paste of nodes (Ctrl/⌘+C, Ctrl/⌘+V, the canvas menu). The copied nodes are kept as JSON
 * in the browser's localStorage, so they paste into another flow, in another tab too.
 */

export const CLIPBOARD_KEY = "switchyard.clipboard";

const clipboardSchema = z.object({
  kind: z.literal("switchyard/nodes"),
  nodes: z
    .array(
      z.object({
        id: z.string().min(1),
        position: z.object({ x: z.number(), y: z.number() }),
        size: z.object({ width: z.number().positive(), height: z.number().positive() }),
        data: z.object({
          defName: z.string().min(1),
          label: z.string().optional(),
          version: z.number().optional(),
          inputs: z.record(z.string(), z.unknown()),
        }),
      }),
    )
    .min(1),
  edges: z.array(
    z.object({
      source: z.string(),
      target: z.string(),
      sourceHandle: z.string().nullish(),
      targetHandle: z.string().nullish(),
    }),
  ),
});

export type ClipboardNodes = z.infer<typeof clipboardSchema>;

/** The selected nodes and the edges between them, as the clipboard keeps them; null when none is selected. */
export function copySelection(nodes: EditorNode[], edges: EditorEdge[]): ClipboardNodes | null {
  const selected = nodes.filter((n) => n.selected && !n.parentId);
  if (selected.length === 0) return null;
  const ids = new Set(selected.map((n) => n.id));
  return {
    kind: "switchyard/nodes",
    nodes: selected.map((n) => {
      const b = nodeBox(n);
      return { id: n.id, position: n.position, size: { width: b.width, height: b.height }, data: n.data };
    }),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map(({ source, target, sourceHandle, targetHandle }) => ({ source, target, sourceHandle, targetHandle })),
  };
}

/** The clipboard's nodes from its stored text; null for anything else (another app's text, a damaged entry). */
export function parseClipboard(text: string | null): ClipboardNodes | null {
  if (!text) return null;
  try {
    const parsed = clipboardSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The box around the copied nodes, in the flow they were copied from. */
export function clipboardBounds(clip: ClipboardNodes): Omit<Box, "id"> {
  const left = Math.min(...clip.nodes.map((n) => n.position.x));
  const top = Math.min(...clip.nodes.map((n) => n.position.y));
  const right = Math.max(...clip.nodes.map((n) => n.position.x + n.size.width));
  const bottom = Math.max(...clip.nodes.map((n) => n.position.y + n.size.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * The graph with the clipboard's nodes pasted: fresh ids, their inputs kept, the group's top left at
 * `at`, the pasted nodes (and only they) selected. Nodes of a kind this editor does not know (an
 * agentflow step pasted into a chatflow) are left out and named in `skipped`.
 */
export function pasteNodes(
  clip: ClipboardNodes,
  nodes: EditorNode[],
  edges: EditorEdge[],
  at: { x: number; y: number },
  known: (defName: string) => boolean,
): { nodes: EditorNode[]; edges: EditorEdge[]; pasted: string[]; skipped: string[] } {
  const usable: NodeSource[] = clip.nodes.filter((n) => known(n.data.defName));
  const skipped = [...new Set(clip.nodes.filter((n) => !known(n.data.defName)).map((n) => n.data.defName))];
  if (usable.length === 0) return { nodes, edges, pasted: [], skipped };
  const from = clipboardBounds(clip);
  const copies = cloneNodes(
    usable,
    clip.edges as EdgeSource[],
    nodes.map((n) => n.id),
    { x: at.x - from.x, y: at.y - from.y },
  );
  const taken = new Set(edges.map((e) => e.id));
  return {
    nodes: [...nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), ...copies.nodes],
    edges: [
      ...edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
      ...copies.edges.filter((e) => !taken.has(e.id)),
    ],
    pasted: copies.nodes.map((n) => n.id),
    skipped,
  };
}
