import dagre from "@dagrejs/dagre";
import type { EditorEdge, EditorNode } from "./types";

/** A node before the browser measured it: the card's width and a typical height. */
export const DEFAULT_SIZE = { width: 264, height: 300 };
/** Space between disconnected groups laid out side by side. */
const GROUP_GAP = 80;

export interface Box {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A node's box on the canvas, from its measured size (or the default before it was measured). */
export function nodeBox(n: EditorNode): Box {
  return {
    id: n.id,
    x: n.position.x,
    y: n.position.y,
    width: n.measured?.width ?? DEFAULT_SIZE.width,
    height: n.measured?.height ?? DEFAULT_SIZE.height,
  };
}

/** Whether two boxes share area (touching edges is not overlapping); `gap` demands that much space between them. */
export function boxesOverlap(a: Omit<Box, "id">, b: Omit<Box, "id">, gap = 0): boolean {
  return (
    a.x < b.x + b.width + gap && b.x < a.x + a.width + gap && a.y < b.y + b.height + gap && b.y < a.y + a.height + gap
  );
}

/** Every pair of boxes that overlap (sorted by x, so a large flow is not compared all against all). */
export function findOverlaps(boxes: Box[], gap = 0): [string, string][] {
  const sorted = [...boxes].sort((a, b) => a.x - b.x);
  const pairs: [string, string][] = [];
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i];
    for (let j = i + 1; j < sorted.length && sorted[j].x < a.x + a.width + gap; j++) {
      if (boxesOverlap(a, sorted[j], gap)) pairs.push([a.id, sorted[j].id]);
    }
  }
  return pairs;
}

/** Whether `inner` lies wholly inside `outer`. */
export function boxInside(inner: Omit<Box, "id">, outer: Omit<Box, "id">): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/**
 * Where a new node of `size` goes near `start` without covering another node: `start` itself when
 * free, else the nearest free spot on a widening ring of steps to the right and below. With
 * `within` (the part of the canvas in view), a free spot wholly inside it is preferred to a nearer
 * one outside; when none is inside, the nearest free spot is returned (the caller brings it into view).
 */
export function freeSpot(
  boxes: Omit<Box, "id">[],
  size: { width: number; height: number },
  start: { x: number; y: number },
  gap = 24,
  within?: Omit<Box, "id">,
): { x: number; y: number } {
  const { width, height } = size;
  const free = (p: { x: number; y: number }) =>
    !boxes.some((b) => boxesOverlap({ x: p.x, y: p.y, width, height }, b, gap));
  const inView = (p: { x: number; y: number }) => !within || boxInside({ x: p.x, y: p.y, width, height }, within);
  if (free(start) && inView(start)) return { x: start.x, y: start.y };
  const dx = width / 2;
  const dy = height / 3;
  let nearest: { x: number; y: number } | undefined = free(start) ? { x: start.x, y: start.y } : undefined;
  for (let ring = 1; ring < 60; ring++) {
    // Past the view on every side: no spot further out is inside it.
    if (nearest && (!within || (ring * dx > within.width + width && ring * dy > within.height + height)))
      return nearest;
    const candidates: { x: number; y: number }[] = [];
    for (let i = -ring; i <= ring; i++) {
      candidates.push({ x: start.x + i * dx, y: start.y + ring * dy }, { x: start.x + i * dx, y: start.y - ring * dy });
      candidates.push({ x: start.x + ring * dx, y: start.y + i * dy }, { x: start.x - ring * dx, y: start.y + i * dy });
    }
    candidates.sort((a, b) => Math.hypot(a.x - start.x, a.y - start.y) - Math.hypot(b.x - start.x, b.y - start.y));
    for (const c of candidates) {
      if (!free(c)) continue;
      if (inView(c)) return c;
      nearest ??= c;
    }
  }
  if (nearest) return nearest;
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  return { x: right + gap, y: start.y };
}

/** Groups of nodes connected by edges (in node order), each a list of node ids. */
export function connectedGroups(nodes: EditorNode[], edges: EditorEdge[]): string[][] {
  const parent = new Map(nodes.map((n) => [n.id, n.id]));
  const find = (id: string): string => {
    let root = id;
    while (parent.get(root) !== root) root = parent.get(root)!;
    parent.set(id, root);
    return root;
  };
  for (const e of edges) {
    if (parent.has(e.source) && parent.has(e.target)) parent.set(find(e.source), find(e.target));
  }
  const groups = new Map<string, string[]>();
  for (const n of nodes) {
    const root = find(n.id);
    groups.set(root, [...(groups.get(root) ?? []), n.id]);
  }
  return [...groups.values()];
}

/** One connected group laid out left to right by dagre; positions relative to the group's top left. */
function layoutGroup(nodes: EditorNode[], edges: EditorEdge[]) {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: "LR", nodesep: 40, ranksep: 90, marginx: 0, marginy: 0 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) {
    const b = nodeBox(n);
    g.setNode(n.id, { width: b.width, height: b.height });
  }
  for (const e of edges) if (g.hasNode(e.source) && g.hasNode(e.target)) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const placed = nodes.map((n) => {
    const p = g.node(n.id);
    const b = nodeBox(n);
    return { id: n.id, x: p.x - b.width / 2, y: p.y - b.height / 2, width: b.width, height: b.height };
  });
  const left = Math.min(...placed.map((b) => b.x));
  const top = Math.min(...placed.map((b) => b.y));
  const moved = placed.map((b) => ({ ...b, x: b.x - left, y: b.y - top }));
  return {
    boxes: moved,
    width: Math.max(...moved.map((b) => b.x + b.width)),
    height: Math.max(...moved.map((b) => b.y + b.height)),
  };
}

/**
 * Left-to-right layered layout (dagre): inputs on the left, the ending node on the right, from the
 * measured node sizes so tall nodes do not overlap. Groups of nodes that are not connected to each
 * other are laid out one by one and placed side by side, in rows about as wide as the largest group
 * (or a landscape screenful), so nodes dropped before wiring do not end up in one tall column. Returns new
 * nodes; edges are unchanged.
 */
export function autoLayout(all: EditorNode[], edges: EditorEdge[]): EditorNode[] {
  // Steps inside a group (an agentflow's Iteration) keep their place in it: only the top level moves.
  const nodes = all.filter((n) => !n.parentId);
  if (nodes.length === 0) return all;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const groups = connectedGroups(nodes, edges).map((ids) => {
    const set = new Set(ids);
    return layoutGroup(
      ids.map((id) => byId.get(id)!),
      edges.filter((e) => set.has(e.source) && set.has(e.target)),
    );
  });
  // Largest groups first: the main flow top left, loose nodes after it.
  groups.sort((a, b) => b.boxes.length - a.boxes.length);
  const area = groups.reduce((s, g) => s + (g.width + GROUP_GAP) * (g.height + GROUP_GAP), 0);
  const rowWidth = Math.max(Math.max(...groups.map((g) => g.width)), Math.sqrt(area * 2.5), 1200);
  const at = new Map<string, { x: number; y: number }>();
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  for (const g of groups) {
    if (x > 0 && x + g.width > rowWidth) {
      x = 0;
      y += rowHeight + GROUP_GAP;
      rowHeight = 0;
    }
    for (const b of g.boxes) at.set(b.id, { x: Math.round(x + b.x), y: Math.round(y + b.y) });
    x += g.width + GROUP_GAP;
    rowHeight = Math.max(rowHeight, g.height);
  }
  return all.map((n) => (n.parentId ? n : { ...n, position: at.get(n.id)! }));
}
