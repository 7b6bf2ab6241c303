import { describe, expect, it } from "vitest";
import { problemDetail, renderProblem } from "./problem-text";
import { graphProblemCodes, graphProblemSchema, toGraphProblem, type GraphProblem } from "./problems";

const chain = { id: "chain", label: "LLM Chain" };
const prompt = { id: "prompt", label: "Prompt Template" };

/** One problem of every code, with the sentence the API has always sent for it. */
const samples: [GraphProblem, string][] = [
  [{ code: "duplicate_node_id", nodeId: "a", params: {} }, "Node id a is used twice."],
  [
    { code: "unknown_node_type", nodeId: "x", params: { label: "noSuch", type: "noSuch" } },
    'Node "noSuch" (x) has an unknown type "noSuch".',
  ],
  [
    {
      code: "param_required",
      nodeId: "prompt",
      input: "template",
      params: { label: "Prompt Template", inputLabel: "Template" },
    },
    'Node "Prompt Template" (prompt): input "Template" is required.',
  ],
  [
    {
      code: "param_invalid",
      nodeId: "m",
      input: "temperature",
      params: { label: "My Model", inputLabel: "Temperature", reason: "expected number" },
    },
    'Node "My Model" (m): input "Temperature" is not valid: expected number.',
  ],
  [
    {
      code: "one_of_required",
      nodeId: "api",
      input: "spec",
      params: { label: "OpenAPI Chain", inputLabels: ["Spec", "Spec URL"] },
    },
    'Node "OpenAPI Chain" (api): one of "Spec", "Spec URL" is required.',
  ],
  [
    { code: "edge_missing_node", nodeId: "a", params: { edgeId: "e1" } },
    "Edge e1 connects a node that does not exist.",
  ],
  [
    { code: "edge_unknown_handle", nodeId: "a", params: { edgeId: "e1", side: "output", handle: "h" } },
    'Edge e1 uses an unknown output handle "h".',
  ],
  [
    {
      code: "connection_type_mismatch",
      nodeId: "chain",
      input: "model",
      params: {
        label: "LLM Chain",
        inputLabel: "Chat model",
        accepts: ["BaseChatModel", "BaseLLM"],
        source: prompt,
        provides: ["BasePromptTemplate"],
      },
    },
    'Node "LLM Chain" (chain): input "Chat model" accepts BaseChatModel or BaseLLM, but "Prompt Template" (prompt) provides BasePromptTemplate.',
  ],
  [
    {
      code: "connection_required",
      nodeId: "chain",
      input: "prompt",
      params: { label: "LLM Chain", inputLabel: "Prompt", accepts: ["BasePromptTemplate"] },
    },
    'Node "LLM Chain" (chain): input "Prompt" needs a connection (BasePromptTemplate).',
  ],
  [
    {
      code: "too_many_connections",
      nodeId: "chain",
      input: "model",
      params: { label: "LLM Chain", inputLabel: "Chat model", count: 2 },
    },
    'Node "LLM Chain" (chain): input "Chat model" takes one connection, but has 2.',
  ],
  [{ code: "flow_empty", params: {} }, "The flow is empty: add a chain or an agent."],
  [
    { code: "node_not_connected", nodeId: "mem", params: { label: "Old memory" } },
    'Node "Old memory" (mem) is not connected to the flow.',
  ],
  [
    {
      code: "several_endings",
      nodeId: "chain",
      params: { label: "LLM Chain", endings: [chain, { id: "conv", label: "Conversation Chain" }] },
    },
    'The flow has more than one ending node ("LLM Chain" (chain), "Conversation Chain" (conv)): connect "LLM Chain" (chain) to the rest or remove it.',
  ],
  [
    { code: "cannot_end_flow", nodeId: "m", params: { label: "My Model" } },
    'Node "My Model" (m) cannot end a flow: connect it to a chain or an agent.',
  ],
  [
    { code: "not_reaching_ending", nodeId: "m", params: { label: "My Model", ending: chain } },
    'Node "My Model" (m) is not connected to the ending node "LLM Chain" (chain).',
  ],
  [
    {
      code: "cycle",
      nodeId: "a",
      params: {
        nodes: [
          { id: "a", label: "Tool Agent" },
          { id: "t", label: "Chain Tool" },
          { id: "a", label: "Tool Agent" },
        ],
      },
    },
    'The flow has a cycle: "Tool Agent" (a) → "Chain Tool" (t) → "Tool Agent" (a).',
  ],
  [
    { code: "invalid_shape", params: { path: "nodes.0.id", reason: "must not contain ':' or spaces" } },
    "nodes.0.id: must not contain ':' or spaces",
  ],
  [{ code: "other", nodeId: "m", params: { message: "could not connect" } }, "could not connect"],
  [{ code: "agentflow_start", params: { count: 0 } }, "An agentflow needs exactly one Start node; it has 0."],
  [
    {
      code: "agentflow_cycle",
      nodeId: "a",
      params: {
        nodes: [
          { id: "a", label: "LLM" },
          { id: "b", label: "Condition" },
          { id: "a", label: "LLM" },
        ],
      },
    },
    'The flow goes round without a Loop node: "LLM" (a) → "Condition" (b) → "LLM" (a). Go back with a Loop node instead.',
  ],
  [
    { code: "step_not_reachable", nodeId: "r", params: { label: "Reply" } },
    'Node "Reply" (r) is not reached from the Start node.',
  ],
  [
    { code: "loop_target_not_upstream", nodeId: "l", input: "loopBackToNode", params: { label: "Loop", target: "x" } },
    'Node "Loop" (l) goes back to "x", which is not an earlier node on its path.',
  ],
  [
    {
      code: "unknown_variable",
      nodeId: "r",
      input: "directReplyMessage",
      params: { label: "Reply", inputLabel: "Message", variable: "nobody" },
    },
    'Node "Reply" (r): input "Message" uses {{nobody}}, which names nothing in this flow.',
  ],
  [
    {
      code: "node_version_newer",
      nodeId: "m",
      params: { label: "My Model", typeLabel: "Chat Model", saved: 2, known: 1 },
    },
    'Node "My Model" (m) was saved with version 2 of "Chat Model", but this server knows versions up to 1 only.',
  ],
  [
    {
      code: "node_version_refused",
      nodeId: "m",
      params: { label: "My Model", typeLabel: "Chat Model", saved: 1, known: 3, reason: "too old." },
    },
    'Node "My Model" (m) was saved with version 1 of "Chat Model", which cannot be brought to version 3: too old.',
  ],
];

// What the canvas used to do to the API's sentence with regexes, kept here as the reference the
// scoped sentences must match (for labels without quotes, where the regexes worked).
function oldWithoutNodeName(message: string): string {
  const m = /^Node "[^"]*" \([^)]*\)(?::\s*|\s+)(.+)$/.exec(message);
  return m ? m[1].charAt(0).toUpperCase() + m[1].slice(1) : message;
}
function oldWithoutInputName(message: string): string {
  const rest = /^Input "[^"]*"\s+(.+)$/.exec(message)?.[1];
  if (!rest) return message;
  return rest === "is required." ? "Required." : rest.charAt(0).toUpperCase() + rest.slice(1);
}

describe("renderProblem", () => {
  it("has a sample for every code, and every sample is valid data", () => {
    expect(samples.map(([p]) => p.code).sort()).toEqual([...graphProblemCodes].sort());
    for (const [p] of samples) expect(graphProblemSchema.parse(p)).toEqual(p);
  });

  it("renders the API's sentences", () => {
    for (const [p, sentence] of samples) expect(renderProblem(p)).toBe(sentence);
  });

  it("drops the node's name on the node and the input's name under the input, as the canvas showed them", () => {
    for (const [p, sentence] of samples) {
      expect(renderProblem(p, "node"), p.code).toBe(oldWithoutNodeName(sentence));
      expect(renderProblem(p, "input"), p.code).toBe(oldWithoutInputName(oldWithoutNodeName(sentence)));
    }
    expect(renderProblem(samples[2][0], "input")).toBe("Required.");
    expect(renderProblem(samples[8][0], "input")).toBe("Needs a connection (BasePromptTemplate).");
  });

  it("needs no parsing of its own words: a label with quotes or brackets still loses the node's name", () => {
    const p: GraphProblem = { code: "node_not_connected", nodeId: "m(1)", params: { label: 'The "best" model' } };
    expect(renderProblem(p)).toBe('Node "The "best" model" (m(1)) is not connected to the flow.');
    expect(renderProblem(p, "node")).toBe("Is not connected to the flow.");
  });
});

describe("problems over the wire", () => {
  it("reads an API detail back as the same problem, and an uncoded detail as code other", () => {
    for (const [p] of samples) expect(toGraphProblem(JSON.parse(JSON.stringify(problemDetail(p))))).toEqual(p);
    expect(toGraphProblem({ nodeId: "m", message: "boom" })).toEqual({
      code: "other",
      nodeId: "m",
      params: { message: "boom" },
    });
    // A code this browser does not know yet (a newer server) still shows the server's sentence.
    expect(toGraphProblem({ code: "node_too_new", nodeId: "m", params: {}, message: "Node m is too new." })).toEqual({
      code: "other",
      nodeId: "m",
      params: { message: "Node m is too new." },
    });
    expect(toGraphProblem({ field: "body.name" })).toBeUndefined();
    expect(toGraphProblem({ code: "cycle", params: {} })).toBeUndefined();
  });
});
