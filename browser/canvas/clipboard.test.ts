import { describe, expect, it } from "vitest";
import { handleId } from "@/common/nodes/handles";
import { copySelection, parseClipboard, pasteNodes } from "./clipboard";
import { boxInside, findOverlaps, freeSpot } from "./layout";
import type { EditorEdge, EditorNode } from "./types";

const node = (id: string, defName: string, x: number, y: number, selected = false): EditorNode => ({
  id,
  type: "flowNode",
  position: { x, y },
  selected,
  data: { defName, inputs: { temperature: 0.2, nested: { keep: ["a"] } } },
  measured: { width: 264, height: 200 },
});
const edge = (s: string, out: string, t: string, inp: string): EditorEdge => ({
  id: `${s}-${t}-${inp}`,
  source: s,
  sourceHandle: handleId(s, out, "out"),
  target: t,
  targetHandle: handleId(t, inp, "in"),
});

const source = [
  node("chatOpenAICompatible_0", "chatOpenAICompatible", 0, 0, true),
  node("toolAgent_0", "toolAgent", 400, 0, true),
  node("bufferMemory_0", "bufferMemory", 0, 300),
];
const sourceEdges = [
  edge("chatOpenAICompatible_0", "chatModel", "toolAgent_0", "model"),
  edge("bufferMemory_0", "memory", "toolAgent_0", "memory"),
];

describe("copy and paste of nodes", () => {
  it("copies the selected nodes and only the edges between them, and reads the copy back", () => {
    const clip = copySelection(source, sourceEdges)!;
    expect(clip.nodes.map((n) => n.id)).toEqual(["chatOpenAICompatible_0", "toolAgent_0"]);
    expect(clip.edges).toHaveLength(1);
    expect(parseClipboard(JSON.stringify(clip))).toEqual(clip);
    expect(
      copySelection(
        source.map((n) => ({ ...n, selected: false })),
        sourceEdges,
      ),
    ).toBeNull();
  });

  it("refuses text that is not copied nodes", () => {
    expect(parseClipboard(null)).toBeNull();
    expect(parseClipboard("hello")).toBeNull();
    expect(parseClipboard(JSON.stringify({ kind: "switchyard/nodes", nodes: [], edges: [] }))).toBeNull();
    expect(parseClipboard(JSON.stringify({ kind: "other", nodes: [{}], edges: [] }))).toBeNull();
  });

  it("pastes with fresh ids, kept inputs, reconnected edges, at the spot, as the only selection", () => {
    const clip = parseClipboard(JSON.stringify(copySelection(source, sourceEdges)))!;
    const r = pasteNodes(clip, source, sourceEdges, { x: 1000, y: 500 }, () => true);
    expect(r.pasted).toEqual(["chatOpenAICompatible_1", "toolAgent_1"]);
    const pasted = r.nodes.filter((n) => r.pasted.includes(n.id));
    expect(pasted.map((n) => n.position)).toEqual([
      { x: 1000, y: 500 },
      { x: 1400, y: 500 },
    ]);
    expect(pasted[0].data.inputs).toEqual(source[0].data.inputs);
    expect(pasted[0].data.inputs.nested).not.toBe(source[0].data.inputs.nested);
    expect(r.nodes.filter((n) => n.selected).map((n) => n.id)).toEqual(r.pasted);
    const added = r.edges.slice(sourceEdges.length);
    expect(added).toEqual([
      expect.objectContaining({
        source: "chatOpenAICompatible_1",
        target: "toolAgent_1",
        sourceHandle: handleId("chatOpenAICompatible_1", "chatModel", "out"),
        targetHandle: handleId("toolAgent_1", "model", "in"),
      }),
    ]);
    // Into another flow (here an empty one): the ids start over there.
    expect(pasteNodes(clip, [], [], { x: 0, y: 0 }, () => true).pasted).toEqual([
      "chatOpenAICompatible_0",
      "toolAgent_0",
    ]);
  });

  it("leaves out node kinds the flow cannot hold, with their edges", () => {
    const clip = copySelection(source, sourceEdges)!;
    const r = pasteNodes(clip, [], [], { x: 0, y: 0 }, (d) => d !== "toolAgent");
    expect(r.pasted).toEqual(["chatOpenAICompatible_0"]);
    expect(r.skipped).toEqual(["toolAgent"]);
    expect(r.edges).toEqual([]);
    const none = pasteNodes(clip, source, sourceEdges, { x: 0, y: 0 }, () => false);
    expect(none.pasted).toEqual([]);
    expect(none.nodes).toBe(source);
  });
});

describe("freeSpot within the view", () => {
  const size = { width: 264, height: 300 };
  const view = { x: 100, y: -400, width: 900, height: 900 };
  it("prefers a free spot inside the view to a nearer one outside it", () => {
    // The middle is taken and so is the right; a free spot in view is above the middle.
    const boxes = [
      { x: 400, y: 150, width: 264, height: 300 },
      { x: 700, y: -400, width: 300, height: 900 },
    ];
    // Without the view, the nearest free spot is left of the middle, outside the view.
    expect(boxInside({ ...freeSpot(boxes, size, { x: 400, y: 150 }, 24), ...size }, view)).toBe(false);
    const spot = freeSpot(boxes, size, { x: 400, y: 150 }, 24, view);
    expect(boxInside({ ...spot, ...size }, view)).toBe(true);
    expect(
      findOverlaps([...boxes.map((b, i) => ({ id: `b${i}`, ...b })), { id: "new", ...spot, ...size }], 24),
    ).toEqual([]);
  });
  it("returns the nearest free spot when the view has none (the caller pans to it)", () => {
    const small = { x: 0, y: 0, width: 700, height: 500 };
    const full = [{ x: -50, y: -50, width: 800, height: 600 }];
    const spot = freeSpot(full, size, { x: 200, y: 100 }, 24, small);
    expect(
      findOverlaps(
        [
          { id: "full", ...full[0] },
          { id: "new", ...spot, ...size },
        ],
        24,
      ),
    ).toEqual([]);
    expect(boxInside({ ...spot, ...size }, small)).toBe(false);
  });
});
