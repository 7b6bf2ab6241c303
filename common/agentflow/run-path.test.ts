import { describe, expect, it } from "vitest";
import type { NodeDefinition } from "@/common/nodes/types";
import type { Graph } from "@/common/schemas/graph";
import { type RunEntry, runPath } from "./run-path";

const step = (name: string, extra: Partial<NodeDefinition> = {}): NodeDefinition => ({
  name,
  version: 1,
  label: name,
  category: "Agent Flows",
  description: "",
  inputs: [],
  outputs: [{ name: "output", label: "Output", types: ["Agentflow"] }],
  capabilities: { agentflow: { role: "step" } },
  ...extra,
});
const defs = [
  step("startAgentflow", { capabilities: { agentflow: { role: "start" } } }),
  step("conditionAgentflow", {
    outputs: [{ name: "else", label: "Else", types: ["Agentflow"] }],
    capabilities: { agentflow: { role: "step", branches: "conditions" } },
  }),
  step("replyAgentflow", { outputs: [] }),
  step("loopAgentflow", { outputs: [], capabilities: { agentflow: { role: "step", loopTarget: "back" } } }),
  step("iterationAgentflow", { capabilities: { agentflow: { role: "step", container: true } } }),
  step("noteAgentflow", { outputs: [], capabilities: { agentflow: { role: "note" } } }),
  { ...step("chatModel"), capabilities: undefined },
];
const lookup = (type: string) => defs.find((d) => d.name === type);

const node = (id: string, type: string, inputs: Record<string, unknown> = {}, parentNode?: string) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs },
  ...(parentNode ? { parentNode } : {}),
});
const edge = (source: string, output: string, target: string) => ({
  id: `${source}-${output}-${target}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:input`,
});
const ran = (
  nodeId: string,
  status: RunEntry["status"] = "FINISHED",
  data: Record<string, unknown> = {},
): RunEntry => ({
  nodeId,
  status,
  data,
});

/** Start → Condition: branch0 → yes, else → no → yes (a merge); the model feeds nobody's path. */
const branching: Graph = {
  nodes: [
    node("start", "startAgentflow"),
    node("cond", "conditionAgentflow", { conditions: [{}] }),
    node("yes", "replyAgentflow"),
    node("no", "replyAgentflow"),
    node("model", "chatModel"),
    node("note", "noteAgentflow"),
  ],
  edges: [
    edge("start", "output", "cond"),
    edge("cond", "branch0", "yes"),
    edge("cond", "else", "no"),
    edge("no", "output", "yes"),
    { id: "m", source: "model", sourceHandle: "model:out:output", target: "yes", targetHandle: "yes:in:model" },
  ],
};

describe("the path a run took", () => {
  it("gives each step its last status, the rest not reached; notes and models are no steps", () => {
    const path = runPath(
      branching,
      [ran("start"), ran("cond", "FINISHED", { branch: "else" }), ran("no", "ERROR")],
      lookup,
    );
    expect(Object.fromEntries(path.nodes)).toEqual({
      start: "finished",
      cond: "finished",
      no: "error",
      yes: "not-reached",
    });
    expect([...path.edges].sort()).toEqual(["cond-else-no", "start-output-cond"]);
  });

  it("lights only the branch taken, even when the other branch's target ran through another path", () => {
    const entries = [ran("start"), ran("cond", "FINISHED", { branch: "else" }), ran("no"), ran("yes")];
    const path = runPath(branching, entries, lookup);
    expect(path.nodes.get("yes")).toBe("finished");
    expect([...path.edges].sort()).toEqual(["cond-else-no", "no-output-yes", "start-output-cond"]);
  });

  it("without a recorded branch (runs stored before it was), an edge between two steps that ran in order is lit", () => {
    const path = runPath(branching, [ran("start"), ran("cond"), ran("yes")], lookup);
    expect(path.edges.has("cond-branch0-yes")).toBe(true);
    expect(path.edges.has("cond-else-no")).toBe(false);
  });

  it("a step waiting at the end is paused; a later entry of a step wins (a Human Input answered)", () => {
    const graph: Graph = {
      nodes: [node("start", "startAgentflow"), node("ask", "replyAgentflow")],
      edges: [edge("start", "output", "ask")],
    };
    expect(runPath(graph, [ran("start"), ran("ask", "STOPPED")], lookup).nodes.get("ask")).toBe("paused");
    const answered = runPath(graph, [ran("start"), ran("ask", "STOPPED"), ran("ask")], lookup);
    expect(answered.nodes.get("ask")).toBe("finished");
    // An edge from a step that failed or waits is no path taken.
    expect(runPath(graph, [ran("start", "ERROR"), ran("ask")], lookup).edges.size).toBe(0);
  });

  it("lights a Loop's back edge when its target ran again after it, and marks an Iteration's inside", () => {
    const graph: Graph = {
      nodes: [
        node("start", "startAgentflow"),
        node("work", "replyAgentflow"),
        node("loop", "loopAgentflow", { back: "work-Work" }),
        node("each", "iterationAgentflow"),
        node("inner", "replyAgentflow", {}, "each"),
      ],
      edges: [edge("start", "output", "work"), edge("work", "output", "loop"), edge("start", "output", "each")],
    };
    const once = runPath(graph, [ran("start"), ran("work"), ran("loop")], lookup);
    expect(once.edges.has("loop-back:loop")).toBe(false);
    expect(once.nodes.get("inner")).toBe("not-reached");
    const twice = runPath(graph, [ran("start"), ran("work"), ran("loop"), ran("work"), ran("each")], lookup);
    expect(twice.edges.has("loop-back:loop")).toBe(true);
    expect(twice.nodes.get("inner")).toBe("in-iteration");
  });
});
