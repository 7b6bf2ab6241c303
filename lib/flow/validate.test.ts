import { describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { edge, node } from "./__fixtures__/graphs";
import { getEndingNode, topologicalOrder } from "@/common/flow/graph-order";
import { validateGraph } from "./validate-saved";

const model = () => node("model", "chatOpenAICompatible", { model: "m" }, "My Model");
const prompt = () => node("prompt", "promptTemplate", { template: "Tell me about {topic}" });
const llmChain = (id = "chain") => node(id, "llmChain", {});

function validGraph() {
  return {
    nodes: [model(), prompt(), llmChain()],
    edges: [edge("model", "chatModel", "chain", "model"), edge("prompt", "prompt", "chain", "prompt")],
  };
}

function problems(graph: unknown) {
  try {
    validateGraph(graph);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("invalid_graph");
    expect((e as AppError).status).toBe(422);
    return {
      message: (e as AppError).message,
      details: (e as AppError).details as { code: string; nodeId?: string; input?: string; message: string }[],
    };
  }
  throw new Error("expected the graph to be refused");
}

describe("validateGraph", () => {
  it("accepts a valid graph and orders it", () => {
    const g = validateGraph(validGraph());
    expect(getEndingNode(g).id).toBe("chain");
    expect(
      topologicalOrder(g)
        .map((n) => n.id)
        .at(-1),
    ).toBe("chain");
  });

  it("accepts a chain's answer as a prompt variable, and refuses a variable naming no connected chain", () => {
    const chained = {
      nodes: [
        model(),
        prompt(),
        llmChain("first"),
        node("prompt2", "promptTemplate", {
          template: "Improve {result} for {topic}; so far: {history}",
          promptValues: { result: "{{first}}", topic: "{{question}}", history: "{{chat_history}}" },
        }),
        llmChain("last"),
      ],
      edges: [
        edge("model", "chatModel", "first", "model"),
        edge("prompt", "prompt", "first", "prompt"),
        edge("first", "prediction", "prompt2", "chains"),
        edge("model", "chatModel", "last", "model"),
        edge("prompt2", "prompt", "last", "prompt"),
      ],
    };
    expect(getEndingNode(validateGraph(chained)).id).toBe("last");
    chained.nodes[3].data.inputs.promptValues = { result: "{{llmChain_9.data.instance}}", other: "{{model}}" };
    expect(problems(chained).details.map((d) => [d.code, d.nodeId, d.input, d.message])).toEqual([
      [
        "unknown_variable",
        "prompt2",
        "promptValues",
        expect.stringContaining("uses {{llmChain_9.data.instance}}, which names nothing"),
      ],
      ["unknown_variable", "prompt2", "promptValues", expect.stringContaining("uses {{model}}")],
    ]);
  });

  it("refuses an unknown node type", () => {
    const g = validGraph();
    g.nodes.push(node("x", "noSuchNode"));
    expect(problems(g).details).toContainEqual({
      code: "unknown_node_type",
      nodeId: "x",
      params: { label: "noSuchNode", type: "noSuchNode" },
      message: expect.stringContaining('unknown type "noSuchNode"'),
    });
  });

  it("refuses a connection between incompatible types, naming node and input", () => {
    const g = validGraph();
    g.edges[1] = edge("prompt", "prompt", "chain", "model");
    const p = problems(g);
    expect(p.details).toContainEqual({
      code: "connection_type_mismatch",
      nodeId: "chain",
      input: "model",
      params: expect.objectContaining({
        label: "LLM Chain",
        inputLabel: "Chat model",
        source: { id: "prompt", label: "Prompt Template" },
      }),
      message: expect.stringContaining(
        'input "Chat model" accepts BaseChatModel, but "Prompt Template" (prompt) provides',
      ),
    });
    expect(p.message).toContain('"LLM Chain" (chain)');
  });

  it("refuses two edges into a single-connection anchor", () => {
    const g = validGraph();
    g.nodes.push(node("model2", "chatOpenAICompatible", {}));
    g.edges.push(edge("model2", "chatModel", "chain", "model"));
    expect(problems(g).details).toContainEqual({
      code: "too_many_connections",
      nodeId: "chain",
      input: "model",
      params: expect.objectContaining({ count: 2 }),
      message: expect.stringContaining("takes one connection, but has 2"),
    });
  });

  it("refuses a missing required anchor and a missing required param", () => {
    const g = validGraph();
    g.edges.pop();
    g.nodes[1] = node("prompt", "promptTemplate", { template: "" });
    const p = problems(g);
    expect(p.details).toContainEqual({
      code: "connection_required",
      nodeId: "chain",
      input: "prompt",
      params: expect.any(Object),
      message: expect.stringContaining('"LLM Chain" (chain): input "Prompt" needs a connection'),
    });
    expect(p.details).toContainEqual({
      code: "param_required",
      nodeId: "prompt",
      input: "template",
      params: { label: "Prompt Template", inputLabel: "Template" },
      message: expect.stringContaining('input "Template" is required'),
    });
  });

  it("refuses a wrongly typed param value", () => {
    const g = validGraph();
    g.nodes[0] = node("model", "chatOpenAICompatible", { temperature: "hot" }, "My Model");
    expect(problems(g).details).toContainEqual({
      code: "param_invalid",
      nodeId: "model",
      input: "temperature",
      params: expect.objectContaining({ label: "My Model", inputLabel: "Temperature" }),
      message: expect.stringContaining('"My Model" (model): input "Temperature" is not valid'),
    });
  });

  it("refuses a cycle", () => {
    const g = {
      nodes: [
        model(),
        node("a", "openApiChain", { spec: "x" }),
        node("t", "chainTool", { name: "t", description: "d" }),
        node("agent", "toolAgent"),
      ],
      edges: [
        edge("model", "chatModel", "a", "model"),
        edge("a", "chain", "t", "chain"),
        edge("t", "tool", "agent", "tools"),
        edge("model", "chatModel", "agent", "model"),
      ],
    };
    expect(() => validateGraph(g)).not.toThrow();
    const t2 = node("t2", "chainTool", { name: "t2", description: "d" });
    g.nodes.push(t2);
    g.edges.push(edge("agent", "agent", "t2", "chain"), edge("t2", "tool", "agent", "tools"));
    expect(problems(g).message).toMatch(
      /cycle: .*"Tool Agent" \(agent\) → "Chain Tool" \(t2\) → "Tool Agent" \(agent\)/,
    );
  });

  it("refuses a dangling node", () => {
    const g = validGraph();
    g.nodes.push(node("mem", "bufferMemory", {}, "Old memory"));
    expect(problems(g).details).toEqual([
      {
        code: "node_not_connected",
        nodeId: "mem",
        params: { label: "Old memory" },
        message: 'Node "Old memory" (mem) is not connected to the flow.',
      },
    ]);
  });

  it("refuses two ending nodes", () => {
    const g = validGraph();
    g.nodes.push(node("conv", "conversationChain", {}));
    g.edges.push(edge("model", "chatModel", "conv", "model"));
    const p = problems(g);
    expect(p.details.map((d) => d.nodeId).sort()).toEqual(["chain", "conv"]);
    expect(p.message).toContain("more than one ending node");
  });

  it("refuses an ending node that is not a chain", () => {
    const p = problems({ nodes: [model()], edges: [] });
    expect(p.details).toEqual([
      {
        code: "cannot_end_flow",
        nodeId: "model",
        params: { label: "My Model" },
        message: expect.stringContaining("cannot end a flow"),
      },
    ]);
  });

  it("refuses bad handles and a malformed graph", () => {
    const g = validGraph();
    g.edges[0] = { ...g.edges[0], sourceHandle: "{{model.data.instance}}" };
    expect(problems(g).details[0].message).toContain("unknown output handle");
    expect(problems({ nodes: [{ id: "a:b" }], edges: [] }).details.length).toBeGreaterThan(0);
  });

  it("requires one of the OpenAPI chain's spec sources", () => {
    const g = {
      nodes: [model(), node("api", "openApiChain", {})],
      edges: [edge("model", "chatModel", "api", "model")],
    };
    expect(problems(g).details).toEqual([
      {
        code: "one_of_required",
        nodeId: "api",
        input: "spec",
        params: expect.any(Object),
        message: expect.stringContaining('one of "OpenAPI spec (YAML or JSON)"'),
      },
    ]);
  });
});
