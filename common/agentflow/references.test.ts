import { describe, expect, it } from "vitest";
import type { NodeDefinition, ParamInput } from "@/common/nodes/types";
import type { Graph } from "@/common/schemas/graph";
import { takesVariables, variableReferencesAt } from "./references";
import { agentflowChecks } from "./validate";

const param = (name: string, type: ParamInput["type"], extra: Partial<ParamInput> = {}): ParamInput => ({
  kind: "param",
  name,
  label: name,
  type,
  optional: true,
  ...extra,
});
const step = (name: string, inputs: ParamInput[], extra: Partial<NodeDefinition> = {}): NodeDefinition => ({
  name,
  version: 1,
  label: name.replace("Agentflow", ""),
  category: "Agent Flows",
  description: "",
  inputs: [
    { kind: "anchor", name: "input", label: "Runs after", accepts: ["Agentflow"], list: true, optional: true },
    ...inputs,
  ],
  outputs: [{ name: "output", label: "Output", types: ["Agentflow"] }],
  capabilities: { agentflow: { role: "step" } },
  ...extra,
});
const start = step("startAgentflow", [param("startState", "json"), param("formInputTypes", "json")], {
  capabilities: { agentflow: { role: "start" } },
});
const llm = step("llmAgentflow", [
  param("llmMessages", "json"),
  param("llmStructuredOutput", "json"),
  param("llmUpdateState", "json"),
]);
const reply = step("replyAgentflow", [param("message", "text", { editor: "prompt" })], { outputs: [] });
const http = step("httpAgentflow", [
  param("url", "string"),
  param("flowId", "string", { pattern: "^x$" }),
  param("method", "options"),
  param("code", "code"),
]);
const loop = step("loopAgentflow", [param("back", "string")], {
  capabilities: { agentflow: { role: "step", loopTarget: "back" } },
});
const iteration = step("iterationAgentflow", [param("iterationInput", "text")], {
  capabilities: { agentflow: { role: "step", container: true } },
});
const defs = [start, llm, reply, http, loop, iteration];
const lookup = (type: string) => defs.find((d) => d.name === type);

const node = (id: string, type: string, inputs: Record<string, unknown> = {}, parentNode?: string) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs, label: id.toUpperCase() },
  ...(parentNode ? { parentNode } : {}),
});
const edge = (source: string, target: string) => ({
  id: `${source}-${target}`,
  source,
  sourceHandle: `${source}:out:output`,
  target,
  targetHandle: `${target}:in:input`,
});

/** Start (state order, form email) → ask (structured: verdict, reason) → each [inner] → done; side is no ancestor of done. */
const graph: Graph = {
  nodes: [
    node("start", "startAgentflow", {
      startState: [{ key: "order", value: "" }, { key: "" }],
      formInputTypes: '[{"name":"email","type":"string"}]',
    }),
    node("ask", "llmAgentflow", { llmStructuredOutput: '[{"key":"verdict","type":"string"},{"key":"reason"}]' }),
    node("each", "iterationAgentflow"),
    node("inner", "replyAgentflow", {}, "each"),
    node("inner2", "replyAgentflow", {}, "each"),
    node("done", "replyAgentflow"),
    node("side", "replyAgentflow"),
  ],
  edges: [
    edge("start", "ask"),
    edge("ask", "each"),
    edge("each", "done"),
    edge("start", "side"),
    edge("inner", "inner2"),
  ],
};

const names = (nodeId: string, opts?: Parameters<typeof variableReferencesAt>[3]) =>
  variableReferencesAt(graph, nodeId, lookup, opts).map((r) => r.name);

describe("what a {{…}} can name at a step", () => {
  it("offers the question, history, Start's state keys and form fields, the run's ids and the steps upstream with their structured keys", () => {
    expect(names("done", { variables: ["apiBase"] })).toEqual([
      "question",
      "chat_history",
      "$flow.state.order",
      "$form.email",
      "$flow.sessionId",
      "$flow.chatId",
      "$flow.chatflowId",
      "each",
      "ask",
      "ask.verdict",
      "ask.reason",
      "$vars.apiBase",
      "current_date_time",
    ]);
  });

  it("never offers the step itself, a step not upstream, or $iteration outside an Iteration", () => {
    const at = names("ask");
    expect(at).not.toContain("ask");
    expect(at).not.toContain("side");
    expect(at).not.toContain("$iteration");
    expect(at).not.toContain("output");
  });

  it("inside an Iteration: $iteration, the steps before it in the pass and those before the Iteration", () => {
    const at = names("inner2");
    expect(at).toContain("$iteration");
    expect(at).toContain("inner");
    expect(at).toContain("ask");
    expect(at).not.toContain("each");
  });

  it("offers {{output}} only in a field that writes flow state", () => {
    expect(names("ask", { param: "llmUpdateState" })).toContain("output");
    expect(names("ask", { param: "llmMessages" })).not.toContain("output");
  });

  it("every name offered passes the save-time check (the same declarations)", () => {
    for (const id of ["ask", "done", "inner2"]) {
      const text = names(id, { param: "llmUpdateState" })
        .filter((n) => n !== "output")
        .map((n) => `{{${n}}}`)
        .join(" ");
      const g: Graph = {
        ...graph,
        nodes: graph.nodes.map((n) =>
          n.id === id
            ? { ...n, data: { ...n.data, inputs: { ...n.data.inputs, message: text, llmMessages: text } } }
            : n,
        ),
      };
      const problems: Parameters<typeof agentflowChecks>[2] = [];
      agentflowChecks(g, new Map(g.nodes.map((n) => [n.id, lookup(n.type)!])), problems);
      expect(problems.filter((p) => p.code === "unknown_variable")).toEqual([]);
    }
  });

  it("knows which fields take variables: a step's text, JSON and plain strings", () => {
    const takes = (def: NodeDefinition) =>
      def.inputs.filter((i): i is ParamInput => i.kind === "param" && takesVariables(def, i)).map((i) => i.name);
    expect(takes(http)).toEqual(["url"]);
    expect(takes(reply)).toEqual(["message"]);
    expect(takes(loop)).toEqual([]);
    expect(takes(start)).toEqual([]);
  });
});
