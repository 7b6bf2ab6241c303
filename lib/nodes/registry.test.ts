import { describe, expect, it } from "vitest";
import { canConnect, handleId, parseHandleId } from "./handles";
import { paramsSchemaFor } from "./params";
import { getDefinition, nodeDefinitions } from "./registry";
import { nodeRuntimes } from "./runtimes";
import { nodeDefinitionSchema } from "./types";

describe("node registry", () => {
  it("has a runtime for every definition and a definition for every runtime", () => {
    const defNames = nodeDefinitions.map((d) => d.name).sort();
    expect(Object.keys(nodeRuntimes).sort()).toEqual(defNames);
  });

  it("has unique names and valid, JSON-serialisable definitions", () => {
    const names = nodeDefinitions.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    for (const def of nodeDefinitions) {
      expect(nodeDefinitionSchema.parse(def)).toEqual(def);
      expect(JSON.parse(JSON.stringify(def))).toEqual(def);
      const io = [...def.inputs.map((i) => i.name), ...def.outputs.map((o) => o.name)];
      expect(new Set(io).size, `${def.name} input/output names`).toBe(io.length);
      for (const name of def.requiresOneOf ?? []) expect(def.inputs.some((i) => i.name === name)).toBe(true);
    }
  });

  it("derives handle ids that parse back to node, direction and name", () => {
    for (const def of nodeDefinitions) {
      for (const input of def.inputs) expect(parseHandleId(handleId("n_1", input.name, "in"))).toEqual({ nodeId: "n_1", direction: "in", name: input.name });
      for (const output of def.outputs) expect(parseHandleId(handleId("n-2", output.name, "out"))).toEqual({ nodeId: "n-2", direction: "out", name: output.name });
    }
    expect(parseHandleId("nonsense")).toBeUndefined();
  });

  it("checks connections by type", () => {
    const model = getDefinition("chatOpenAICompatible")!;
    const chain = getDefinition("llmChain")!;
    const prompt = getDefinition("promptTemplate")!;
    const tool = getDefinition("chainTool")!;
    const agent = getDefinition("toolAgent")!;
    expect(canConnect(model, "chatModel", chain, "model")).toBe(true);
    expect(canConnect(prompt, "prompt", chain, "model")).toBe(false);
    expect(canConnect(chain, "chain", tool, "chain")).toBe(true);
    expect(canConnect(tool, "tool", agent, "tools")).toBe(true);
    expect(canConnect(model, "chatModel", agent, "systemMessage")).toBe(false);
  });

  it("generates param schemas that apply defaults and refuse wrong values", () => {
    const schema = paramsSchemaFor(getDefinition("toolAgent")!);
    expect(schema.parse({})).toEqual({ systemMessage: expect.any(String), maxIterations: 10 });
    expect(schema.parse({ maxIterations: "5" }).maxIterations).toBe(5);
    expect(schema.safeParse({ maxIterations: 0 }).success).toBe(false);
    const tool = paramsSchemaFor(getDefinition("chainTool")!);
    expect(tool.safeParse({ name: "bad name!", description: "x" }).success).toBe(false);
    expect(tool.parse({ name: "product_search", description: "x" })).toEqual({ name: "product_search", description: "x", returnDirect: false });
  });
});
