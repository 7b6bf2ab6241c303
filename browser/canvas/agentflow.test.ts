import { describe, expect, it } from "vitest";
import type { NodeDefinition } from "@/common/nodes/types";
import { clearOfGroupForms, GROUP_INSET, labelledOutputs, loopBackEdges, loopPairs } from "./agentflow";
import { editorToGraph, graphToEditor } from "./graph-convert";
import type { EditorNode } from "./types";

const condition: NodeDefinition = {
  name: "conditionAgentflow",
  version: 1,
  label: "Condition",
  category: "Agent Flows",
  description: "",
  inputs: [{ kind: "param", name: "conditions", label: "Conditions", type: "json" }],
  outputs: [{ name: "else", label: "Else", types: ["Agentflow"] }],
  capabilities: { agentflow: { role: "step", branches: "conditions" } },
};
const loop: NodeDefinition = {
  ...condition,
  name: "loopAgentflow",
  inputs: [{ kind: "param", name: "loopBackToNode", label: "Loop back to", type: "string" }],
  outputs: [],
  capabilities: { agentflow: { role: "step", loopTarget: "loopBackToNode" } },
};
const placed = (id: string, defName: string, inputs: Record<string, unknown> = {}, parentId?: string): EditorNode => ({
  id,
  type: "flowNode",
  position: { x: 10, y: 20 },
  data: { defName, inputs },
  ...(parentId ? { parentId, extent: "parent" as const } : {}),
});

describe("agentflow canvas", () => {
  it("gives a Condition one output per rule (named after it), then Else, also while its JSON is text", () => {
    const rules = [{ value1: "{{question}}", operation: "contains", value2: "refund" }, {}];
    const asList = labelledOutputs(condition, { conditions: rules });
    expect(asList.map((o) => [o.name, o.label])).toEqual([
      ["branch0", "1. {{question}} contains refund"],
      ["branch1", "Branch 2"],
      ["else", "Else"],
    ]);
    expect(labelledOutputs(condition, { conditions: JSON.stringify(rules) }).map((o) => o.name)).toEqual(
      asList.map((o) => o.name),
    );
    expect(labelledOutputs(condition, { conditions: "[ not json" }).map((o) => o.name)).toEqual(["else"]);
  });

  it("draws a Loop's back edge to its target, Flowise's `<id>-<label>` included, and none without one", () => {
    const lookup = (name: string) => (name === loop.name ? loop : condition);
    const nodes = [placed("llm-1", "x"), placed("back", "loopAgentflow", { loopBackToNode: "llm-1-LLM" })];
    const pairs = loopPairs(nodes, lookup);
    expect(pairs).toBe("back>llm-1");
    expect(loopBackEdges(pairs)).toMatchObject([{ source: "back", target: "llm-1", selectable: false }]);
    expect(loopPairs([placed("back", "loopAgentflow", { loopBackToNode: "gone" })], lookup)).toBe("");
  });

  it("keeps an Iteration's steps inside it: parents first, parentNode saved back, clear of its form", () => {
    const graph = {
      nodes: [
        { id: "child", type: "x", position: { x: 20, y: 10 }, parentNode: "group", data: { inputs: {} } },
        { id: "group", type: "y", position: { x: 0, y: 0 }, data: { inputs: {} } },
      ],
      edges: [],
    };
    const { nodes } = graphToEditor(graph);
    expect(nodes.map((n) => [n.id, n.parentId])).toEqual([
      ["group", undefined],
      ["child", "group"],
    ]);
    const cleared = clearOfGroupForms(nodes);
    expect(cleared[1].position).toEqual({ x: GROUP_INSET.left, y: GROUP_INSET.top });
    expect(editorToGraph(cleared, []).nodes[1]).toMatchObject({ id: "child", parentNode: "group" });
  });
});
