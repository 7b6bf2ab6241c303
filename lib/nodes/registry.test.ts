import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { csvLoaderDefinition } from "./csv-loader/definition";
import type { InputsOf, NodeModule, ParamsOf, RuntimeOf } from "./define";
import { canConnect, handleId, parseHandleId } from "@/common/nodes/handles";
import type { openApiChainDefinition } from "./openapi-chain/definition";
import { paramsSchemaFor } from "@/common/nodes/params";
import type { pgvectorStoreDefinition } from "./pgvector-store/definition";
import { getDefinition, getNode, nodeDefinitions, nodes } from "./registry";
import type { toolAgentDefinition } from "./tool-agent/definition";
import type { ChatHistoryMemory } from "./shared/memory";
import { nodeDefinitionSchema } from "@/common/nodes/types";

const NODES_DIR = import.meta.dirname;
const nodeFolders = readdirSync(NODES_DIR).filter((f) => existsSync(path.join(NODES_DIR, f, "definition.ts")));

describe("node registry", () => {
  it("lists every node folder once: each exports one node object with a runtime", async () => {
    expect(nodeFolders.length).toBeGreaterThan(20);
    for (const folder of nodeFolders) {
      const exported = Object.values(await import(`./${folder}/index.ts`)) as NodeModule[];
      expect(exported, `${folder}/index.ts exports one node`).toHaveLength(1);
      expect(nodes, `${folder} is listed in registry.ts`).toContain(exported[0]);
      expect(typeof exported[0].runtime, folder).toBe("function");
      expect(typeof exported[0].migrate, folder).toBe("function");
      expect(getNode(exported[0].definition.name)).toBe(exported[0]);
    }
    expect(nodes).toHaveLength(nodeFolders.length);
    expect(nodeDefinitions).toEqual(nodes.map((n) => n.definition));
  });

  it("gives every definition a version, 1 or more", () => {
    for (const def of nodeDefinitions) expect(Number.isInteger(def.version) && def.version >= 1, def.name).toBe(true);
  });

  it("types each runtime's params from its definition", () => {
    expectTypeOf<ParamsOf<typeof toolAgentDefinition>>().toEqualTypeOf<{
      systemMessage: string;
      maxIterations: number;
    }>();
    expectTypeOf<ParamsOf<typeof pgvectorStoreDefinition>>().toEqualTypeOf<{
      topK: number;
      cleanup: "incremental" | "full" | "none";
      scoreThreshold?: number;
    }>();
    expectTypeOf<ParamsOf<typeof csvLoaderDefinition>>().toEqualTypeOf<{
      file?: string;
      sourceName?: string;
      metadata?: Record<string, unknown> | unknown[];
      columns?: string;
    }>();
    type OpenApiParams = Parameters<RuntimeOf<typeof openApiChainDefinition>>[0]["params"];
    expectTypeOf<OpenApiParams["timeoutSeconds"]>().toEqualTypeOf<number>();
    expectTypeOf<OpenApiParams["headersCredential"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<InputsOf<typeof toolAgentDefinition>>().toEqualTypeOf<{
      model: BaseChatModel;
      // A tool, or a toolkit's several (agentTools flattens them).
      tools: (StructuredToolInterface | StructuredToolInterface[])[];
      memory?: ChatHistoryMemory;
    }>();
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
      for (const input of def.inputs)
        expect(parseHandleId(handleId("n_1", input.name, "in"))).toEqual({
          nodeId: "n_1",
          direction: "in",
          name: input.name,
        });
      for (const output of def.outputs)
        expect(parseHandleId(handleId("n-2", output.name, "out"))).toEqual({
          nodeId: "n-2",
          direction: "out",
          name: output.name,
        });
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
    expect(tool.parse({ name: "product_search", description: "x" })).toEqual({
      name: "product_search",
      description: "x",
      returnDirect: false,
    });
  });

  it("keeps the node runtimes out of the browser: no client module imports the registry", () => {
    const serverOnly =
      /from "(?:@\/lib\/nodes|(?:\.\.\/)+(?:lib\/)?nodes|\.)\/(?:registry|overridable|migrate|[a-z-]+\/(?:index|runtime))"/;
    const roots = ["components", "browser", "common", "widget", "app"].map((r) => path.join(NODES_DIR, "../..", r));
    const offenders: string[] = [];
    const walk = (p: string): void => {
      if (statSync(p).isDirectory()) {
        for (const f of readdirSync(p)) walk(path.join(p, f));
        return;
      }
      if (!/\.tsx?$/.test(p) || p.endsWith(".test.ts")) return;
      const text = readFileSync(p, "utf8");
      const client = !p.includes(`${path.sep}app${path.sep}`) || text.startsWith('"use client"');
      if (client && serverOnly.test(text)) offenders.push(p);
    };
    for (const root of roots) if (existsSync(root)) walk(root);
    expect(offenders).toEqual([]);
  });
});
