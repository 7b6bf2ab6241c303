import { describe, expect, it } from "vitest";
import { edge, node, testContext } from "@/lib/flow/__fixtures__/graphs";
import { buildFlow } from "@/lib/flow/build";
import { graphAllowsImages } from "@/lib/services/public-chatbot";
import { storeNodesOf } from "@/lib/services/vector-stores";
import { isStoreRetriever } from "@/lib/vector/store-retriever";
import { isMemory, storeKindOf, takesImages } from "@/common/nodes/capabilities";
import { paramsSchemaFor } from "@/common/nodes/params";
import { nodeDefinitions, nodes } from "@/lib/nodes/registry";
import { paramInputs, type NodeDefinition } from "@/common/nodes/types";

/**
 * Every declared capability is what the places that used to check names and categories rely on:
 * image uploads (build + widget config), stores (upsert/studio list + the built retriever), memory.
 */

const withCapability = (pick: (d: NodeDefinition) => unknown) =>
  nodeDefinitions.filter((d) => pick(d) !== undefined && pick(d) !== false);
const imageNodes = withCapability((d) => d.capabilities?.acceptsImages);
const storeNodes = withCapability(storeKindOf);
const memoryNodes = withCapability(isMemory);

/**
 * A credential for each credential param of a definition, with a key (models are built, never
 * called), and a value for each required string param without a default (e.g. Ollama's model name).
 */
function credentialsFor(def: NodeDefinition) {
  const creds: Record<string, { name: string; type: string; data: Record<string, string> }> = {};
  const inputs: Record<string, unknown> = {};
  for (const p of paramInputs(def).filter((p) => p.type === "credential")) {
    // A base URL too: an Azure OpenAI credential names its endpoint (the others' default host is fine either way);
    // an AWS key id and region for Bedrock's (the others ignore them).
    const data = {
      apiKey: "k",
      baseURL: "https://provider.example",
      accessKeyId: "AKIAEXAMPLE0000000",
      region: "us-east-1",
    };
    creds[`cred-${p.name}`] = { name: p.label, type: p.credentialTypes?.[0] ?? "openai", data };
    inputs[p.name] = `cred-${p.name}`;
  }
  for (const p of paramInputs(def).filter((p) => p.type === "string" && !p.optional && p.default === undefined))
    inputs[p.name] = p.placeholder ?? "x";
  return { creds, inputs };
}

/** The node as the model of a conversation chain, with its image toggle on or off. */
function chatGraph(def: NodeDefinition, toggle: string, on: boolean | string) {
  const { inputs } = credentialsFor(def);
  return {
    nodes: [node("model", def.name, { ...inputs, [toggle]: on }), node("chain", "conversationChain")],
    edges: [edge("model", def.outputs[0].name, "chain", "model")],
  };
}

describe("declared capabilities", () => {
  it("are declared by the nodes that need them", () => {
    expect(imageNodes.map((d) => d.name).sort()).toEqual([
      "awsChatBedrock",
      "azureChatOpenAI",
      "chatAnthropic",
      "chatDeepseek",
      "chatGoogleGenerativeAI",
      "chatGroq",
      "chatMistralAI",
      "chatOllama",
      "chatOpenAICompatible",
      "chatOpenRouter",
      "chatTogetherAI",
    ]);
    expect(Object.fromEntries(storeNodes.map((d) => [d.name, storeKindOf(d)]))).toEqual({
      pgvectorStore: "vector",
      pineconeStore: "vector",
      qdrantStore: "vector",
      chromaStore: "vector",
      elasticsearchStore: "vector",
      keywordStore: "keyword",
    });
    expect(memoryNodes.map((d) => d.name)).toEqual(["bufferMemory"]);
  });

  it("acceptsImages: its toggle is a boolean param, and only with it on do images reach the flow and the widget", async () => {
    for (const def of imageNodes) {
      const toggle = def.capabilities!.acceptsImages!.toggle;
      expect(paramInputs(def).find((p) => p.name === toggle)?.type, def.name).toBe("boolean");
      const ctx = { ...testContext(credentialsFor(def).creds), env: { OPENAI_MODEL: "m", OPENAI_API_KEY: "k" } };
      for (const on of [true, "true", false]) {
        const graph = chatGraph(def, toggle, on);
        const expected = on !== false;
        expect((await buildFlow(graph, ctx)).allowsImages, `${def.name} ${on}`).toBe(expected);
        expect(graphAllowsImages(graph), `${def.name} ${on}`).toBe(expected);
        expect(takesImages(def, graph.nodes[0].data.inputs)).toBe(expected);
      }
    }
    // A node without the capability never takes images, whatever its params say.
    const chain = nodeDefinitions.find((d) => d.name === "conversationChain")!;
    expect(takesImages(chain, { allowImageUploads: true })).toBe(false);
  });

  it("store: the upsert and the studio list exactly the store nodes, and each builds a retriever of its kind", async () => {
    const graph = { nodes: nodeDefinitions.map((d) => node(`n-${d.name}`, d.name)), edges: [] };
    expect(storeNodesOf(graph)).toEqual(
      storeNodes.map((d) => ({ nodeId: `n-${d.name}`, label: d.label, type: d.name, storeType: storeKindOf(d) })),
    );
    for (const def of storeNodes) {
      const runtime = nodes.find((n) => n.definition === def)!.runtime;
      const { creds, inputs } = credentialsFor(def);
      const params = paramsSchemaFor(def).parse(inputs);
      const built = await runtime({
        nodeId: "s",
        label: def.label,
        params,
        inputs: { document: [] },
        ctx: testContext(creds),
      });
      expect(isStoreRetriever(built) && built.opts.storeType, def.name).toBe(storeKindOf(def));
    }
  });

  it("memory: the flow records the memory node's label as its memoryType", async () => {
    for (const def of memoryNodes) {
      const flow = await buildFlow(
        {
          nodes: [node("model", "chatOpenAICompatible"), node("mem", def.name), node("chain", "conversationChain")],
          edges: [edge("model", "chatModel", "chain", "model"), edge("mem", def.outputs[0].name, "chain", "memory")],
        },
        { ...testContext(), env: { OPENAI_MODEL: "m", OPENAI_API_KEY: "k" } },
      );
      expect(flow.memoryType).toBe(def.label);
    }
  });
});
