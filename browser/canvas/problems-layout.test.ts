// Issue 14 (problems panel, calm new nodes, layout without overlap): the pure parts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeCatalog } from "@/common/nodes/catalog";
import { nodeDefinitions } from "@/lib/nodes/registry";
import { handleId } from "@/common/nodes/handles";
import { graphSchema } from "@/common/schemas/graph";
import type { GraphProblem } from "@/common/schemas/problems";
import { createEditorStore } from "./editor-store";
import { graphToEditor } from "./graph-convert";
import { autoLayout, connectedGroups, findOverlaps, freeSpot, nodeBox, type Box } from "./layout";
import { groupProblems, hidePristine } from "./problems";
import type { EditorEdge, EditorNode } from "./types";

const node = (id: string, defName: string, size?: { width: number; height: number }): EditorNode => ({
  id,
  type: "flowNode",
  position: { x: 0, y: 0 },
  data: { defName, inputs: {} },
  ...(size ? { measured: size } : {}),
});
const edge = (s: string, out: string, t: string, inp: string): EditorEdge => ({
  id: `${s}-${t}-${inp}`,
  source: s,
  sourceHandle: handleId(s, out, "out"),
  target: t,
  targetHandle: handleId(t, inp, "in"),
});
const example = (file: string) => {
  const raw = JSON.parse(readFileSync(`flows/${file}.json`, "utf8")) as { graph: unknown };
  return graphToEditor(graphSchema.parse(raw.graph));
};
const newStore = () => createEditorStore(nodeCatalog(nodeDefinitions));

describe("problems: the panel and the nodes", () => {
  const endings = Array.from({ length: 60 }, (_, i) => ({ id: `agent${i}`, label: `Agent ${i}` }));
  const several: GraphProblem[] = endings.map((e) => ({
    code: "several_endings",
    nodeId: e.id,
    params: { label: e.label, endings },
  }));

  it("lists a whole-graph problem once in the panel, naming its nodes, and only a short line on each node", () => {
    const grouped = groupProblems(several);
    const flow = grouped.panel.filter((p) => p.scope === "flow");
    expect(flow).toHaveLength(1);
    expect(flow[0].text).toContain("more than one ending node");
    expect(flow[0].nodes.map((n) => n.id)).toEqual(endings.map((e) => e.id));
    expect(grouped.panel).toHaveLength(1);
    for (const e of endings) {
      const on = grouped.byNode.get(e.id)!;
      expect(on).toHaveLength(1);
      expect(on[0].message).toBe("One of 60 ending nodes: connect it to the rest of the flow or remove it.");
      expect(on[0].message).not.toContain("Agent 1"); // not the other 59 names
    }
  });

  it("puts a node's own problem on that node only, and into the panel with its node", () => {
    const required: GraphProblem = {
      code: "connection_required",
      nodeId: "agent0",
      input: "tools",
      params: { label: "Agent 0", inputLabel: "Tools", accepts: ["Tool"] },
    };
    const grouped = groupProblems([required, ...several.slice(0, 2)]);
    expect([...grouped.byNode.keys()].sort()).toEqual(["agent0", "agent1"]);
    expect(grouped.byNode.get("agent0")!.map((p) => p.input)).toEqual(["tools", undefined]);
    expect(grouped.panel.map((p) => p.scope)).toEqual(["flow", "node"]);
    expect(grouped.panel[1].nodes).toEqual([{ id: "agent0", label: "Agent 0" }]);
    // A cycle: once in the panel, one short line on the node it is reported on.
    const cycle = groupProblems([
      {
        code: "cycle",
        nodeId: "a",
        params: {
          nodes: [
            { id: "a", label: "A" },
            { id: "b", label: "B" },
          ],
        },
      },
    ]);
    expect(cycle.panel.map((p) => p.nodes.map((n) => n.id))).toEqual([["a", "b"]]);
    expect(cycle.byNode.get("a")![0].message).toBe("Is part of a cycle.");
  });

  it("hides the problems of pristine nodes and the ending problems only they cause", () => {
    const pristine = new Set(endings.slice(1).map((e) => e.id));
    expect(
      hidePristine(
        several,
        pristine,
        endings.map((e) => e.id),
      ),
    ).toEqual([]);
    const two = new Set(endings.slice(2).map((e) => e.id));
    const kept = hidePristine(
      several,
      two,
      endings.map((e) => e.id),
    );
    expect(kept.map((p) => p.nodeId)).toEqual(["agent0", "agent1"]);
    expect(kept[0].code === "several_endings" && kept[0].params.endings.map((e) => e.id)).toEqual(["agent0", "agent1"]);
  });
});

describe("pristine nodes in the editor store", () => {
  it("keeps freshly added nodes calm until touched, then shows their problems", () => {
    const store = newStore();
    store.load([], [], true);
    for (const [id, def] of [
      ["model", "chatOpenAICompatible"],
      ["api", "openApiChain"],
      ["tool", "chainTool"],
      ["agent", "toolAgent"],
      ["mem", "bufferMemory"],
    ]) {
      store.addNode(node(id, def));
    }
    store.validateNow();
    expect(store.getState().problems.count).toBe(0);
    expect(store.getState().problems.byNode.size).toBe(0);

    store.updateParam("tool", "name", "product_search");
    store.validateNow();
    expect([...store.getState().problems.byNode.keys()]).toEqual(["tool"]);

    store.touch(["mem", "agent"]);
    store.validateNow();
    expect([...store.getState().problems.byNode.keys()].sort()).toEqual(["agent", "mem", "tool"]);

    store.revealAll(); // a save or a run
    store.validateNow();
    expect(store.getState().problems.byNode.size).toBe(5);
  });

  it("does not turn a valid saved flow red when a node is dropped next to it", () => {
    const store = newStore();
    const { nodes, edges } = example("conversation");
    store.load(nodes, edges, true);
    store.validateNow();
    expect(store.getState().problems.count).toBe(0);
    store.addNode(node("agent", "toolAgent"));
    store.validateNow();
    expect(store.getState().problems.count).toBe(0);
    store.touch(["agent"]);
    store.validateNow();
    expect(
      store
        .getState()
        .problems.byNode.get("agent")
        ?.map((p) => p.message),
    ).toContain("Is not connected to the flow.");
  });

  it("shows every node.s problems once a run reports problems", () => {
    const store = newStore();
    store.load([], [], true);
    store.addNode(node("agent", "toolAgent"));
    store.setServerProblems([]);
    store.validateNow();
    expect(store.getState().problems.byNode.has("agent")).toBe(true);
  });
});

describe("layout", () => {
  const box = (id: string, x: number, y: number, width = 100, height = 100): Box => ({ id, x, y, width, height });

  it("finds overlapping boxes, not touching or distant ones", () => {
    expect(findOverlaps([box("a", 0, 0), box("b", 50, 50), box("c", 100, 0), box("d", 400, 400)])).toEqual([
      ["a", "b"],
      ["b", "c"],
    ]);
    expect(findOverlaps([box("a", 0, 0), box("c", 100, 0)], 8)).toEqual([["a", "c"]]);
    expect(findOverlaps([box("a", 0, 0), box("b", 0, 150)])).toEqual([]);
  });

  it("finds the stored example positions overlapping once nodes have their real (tall) sizes", () => {
    const { nodes } = example("conversation");
    // The chat model's card is taller than the 320 px between it and the memory below it.
    const measured = nodes.map((n) => ({ ...n, measured: { width: 264, height: n.id === "chatModel" ? 560 : 200 } }));
    expect(findOverlaps(measured.map(nodeBox))).toEqual([["chatModel", "memory"]]);
    const laid = autoLayout(measured, example("conversation").edges);
    expect(findOverlaps(laid.map(nodeBox), 8)).toEqual([]);
  });

  it("places a new node next to the others instead of on top of them", () => {
    const boxes = [box("a", 0, 0, 264, 300), box("b", 300, 0, 264, 300)];
    const spot = freeSpot(boxes, { width: 264, height: 300 }, { x: 10, y: 10 });
    expect(findOverlaps([...boxes, { id: "new", ...spot, width: 264, height: 300 }])).toEqual([]);
    expect(freeSpot(boxes, { width: 100, height: 100 }, { x: 0, y: 500 })).toEqual({ x: 0, y: 500 });
  });

  it("lays disconnected groups side by side, none overlapping, not in one column", () => {
    const size = { width: 264, height: 400 };
    const nodes = [
      node("model", "chatOpenAICompatible", size),
      node("chain", "conversationChain", size),
      node("model2", "chatOpenAICompatible", size),
      node("agent", "toolAgent", size),
      node("mem", "bufferMemory", size),
      node("loose1", "bufferMemory", size),
      node("loose2", "bufferMemory", size),
    ];
    const edges = [
      edge("model", "chatModel", "chain", "model"),
      edge("model2", "chatModel", "agent", "model"),
      edge("mem", "memory", "agent", "memory"),
    ];
    expect(connectedGroups(nodes, edges).map((g) => g.sort())).toEqual([
      ["chain", "model"],
      ["agent", "mem", "model2"],
      ["loose1"],
      ["loose2"],
    ]);
    const laid = autoLayout(nodes, edges);
    const boxes = laid.map(nodeBox);
    expect(findOverlaps(boxes, 8)).toEqual([]);
    const at = (id: string) => boxes.find((b) => b.id === id)!;
    // Each group still reads left to right.
    expect(at("model").x).toBeLessThan(at("chain").x);
    expect(at("model2").x).toBeLessThan(at("agent").x);
    // Groups sit beside each other: the bounding box is wider than tall (one column of 7 × 400 would be 2,800 tall).
    const width = Math.max(...boxes.map((b) => b.x + b.width)) - Math.min(...boxes.map((b) => b.x));
    const height = Math.max(...boxes.map((b) => b.y + b.height)) - Math.min(...boxes.map((b) => b.y));
    expect(width).toBeGreaterThan(height);
    expect(height).toBeLessThan((7 * 400) / 2);
  });
});
