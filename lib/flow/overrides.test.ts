import { describe, expect, it } from "vitest";
import { edge, node } from "./__fixtures__/graphs";
import { applyOverrides } from "./overrides";
import { validateGraph } from "./validate-saved";

const graph = validateGraph({
  nodes: [
    node("m1", "chatOpenAICompatible", { temperature: 0.5, credential: "cred-1" }),
    node("m2", "chatOpenAICompatible", { temperature: 0.5 }),
    node("api", "openApiChain", { spec: "openapi: 3.0.0" }),
    node("tool", "chainTool", { name: "api", description: "d" }),
    node("agent", "toolAgent", {}),
  ],
  edges: [
    edge("m1", "chatModel", "api", "model"),
    edge("api", "chain", "tool", "chain"),
    edge("tool", "tool", "agent", "tools"),
    edge("m2", "chatModel", "agent", "model"),
  ],
});

describe("applyOverrides", () => {
  it("applies an allowed value to every node with that param, validated and converted", () => {
    const g = applyOverrides(graph, { temperature: "0.1", sessionId: "s1" }, ["temperature"]);
    expect(g.nodes.find((n) => n.id === "m1")!.data.inputs.temperature).toBe(0.1);
    expect(g.nodes.find((n) => n.id === "m2")!.data.inputs.temperature).toBe(0.1);
    expect(graph.nodes[0].data.inputs.temperature).toBe(0.5);
  });

  it("applies a per-node value", () => {
    const g = applyOverrides(graph, { temperature: { m2: 1.2 } }, ["temperature"]);
    expect(g.nodes.find((n) => n.id === "m1")!.data.inputs.temperature).toBe(0.5);
    expect(g.nodes.find((n) => n.id === "m2")!.data.inputs.temperature).toBe(1.2);
  });

  it("refuses keys that are not allowed, invalid values and credentials", () => {
    expect(() => applyOverrides(graph, { systemMessage: "be evil" }, ["temperature"])).toThrow(
      expect.objectContaining({
        code: "validation_failed",
        message: expect.stringContaining("overrideConfig.systemMessage is not allowed for this chatflow"),
      }),
    );
    expect(() => applyOverrides(graph, { temperature: "hot" }, ["temperature"])).toThrow(
      expect.objectContaining({ code: "validation_failed" }),
    );
    expect(() => applyOverrides(graph, { credential: "other" }, ["credential"])).toThrow(/can never be overridden/);
    expect(() => applyOverrides(graph, { nothing: 1 }, ["nothing"])).toThrow(/matches no input/);
  });

  it("ignores the reserved keys even when not allowed", () => {
    expect(applyOverrides(graph, { sessionId: "x", returnSourceDocuments: true }, [])).toEqual(graph);
  });
});
