import { describe, expect, it } from "vitest";
import { getDefinition } from "../nodes/registry";
import { convertFlowiseFlow } from "./convert";
import { flowiseMappings } from "./mappings";
import { NO_EQUIVALENT_FLOWISE_TYPES } from "./refused";
import { toHttpUrl } from "./rules";
import type { FlowiseFlow, FlowiseNode } from "./types";

// Flows shaped like Flowise's marketplace templates (built here, not read from Flowise), for the
// node types those templates use that earlier imports refused.
const convert = (flow: FlowiseFlow) => convertFlowiseFlow(flow, flowiseMappings, getDefinition);
const node = (id: string, name: string, inputs: Record<string, unknown>, type = "customNode"): FlowiseNode => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { name, label: id, inputs },
});
const ctx = { node: { id: "n", data: { name: "x" } }, input: "i" };

describe("Flowise template shapes", () => {
  it("Simple Chat Engine on Azure (LlamaIndex): the model becomes our Azure OpenAI chat model feeding the engine", () => {
    const r = convert({
      nodes: [
        node("azure_0", "azureChatOpenAI_LlamaIndex", {
          modelName: "gpt-35-turbo",
          temperature: 0.9,
          maxTokens: "",
          topP: "",
          timeout: "",
        }),
        node("memory_0", "bufferMemory", { sessionId: "", memoryKey: "chat_history" }),
        node("engine_0", "simpleChatEngine", {
          model: "{{azure_0.data.instance}}",
          memory: "{{memory_0.data.instance}}",
          systemMessagePrompt: "You are a helpful assistant.",
        }),
      ],
      edges: [
        {
          source: "azure_0",
          sourceHandle: "azure_0-output-azureChatOpenAI_LlamaIndex-AzureChatOpenAI|BaseChatModel_LlamaIndex",
          target: "engine_0",
          targetHandle: "engine_0-input-model-BaseChatModel_LlamaIndex",
        },
        {
          source: "memory_0",
          sourceHandle: "memory_0-output-bufferMemory-BufferMemory|BaseChatMemory|BaseMemory",
          target: "engine_0",
          targetHandle: "engine_0-input-memory-BaseChatMemory",
        },
      ],
    });
    expect(r.unmapped).toEqual([]);
    expect(r.dropped).toEqual([]);
    const azure = r.graph.nodes.find((n) => n.id === "azure_0");
    expect(azure).toMatchObject({
      type: "azureChatOpenAI",
      data: { inputs: { model: "gpt-35-turbo", temperature: 0.9 } },
    });
    expect(r.graph.edges).toContainEqual(
      expect.objectContaining({ sourceHandle: "azure_0:out:chatModel", targetHandle: "engine_0:in:model" }),
    );
    expect(r.warnings.map((w) => w.message)).toContainEqual(
      expect.stringContaining('LlamaIndex node "AzureChatOpenAI" was imported as our Azure OpenAI Chat Model'),
    );
  });

  it("an agentflow tool's URL written as rich text is that URL; other text still refuses", () => {
    expect(toHttpUrl("<p>http://localhost:5566/events</p>", ctx)).toEqual({ value: "http://localhost:5566/events" });
    expect(toHttpUrl("https://api.example.com/x", ctx)).toEqual({ value: "https://api.example.com/x" });
    expect(toHttpUrl("<p>{{ $flow.state.url }}</p>", ctx)).toMatchObject({ drop: expect.stringContaining("http(s)") });
    expect(toHttpUrl("<p>file:///etc/passwd</p>", ctx)).toMatchObject({ drop: expect.any(String) });
  });

  it("an Agent step's Requests Get tool with a rich-text URL imports as our Requests Get tool", () => {
    const r = convert({
      nodes: [
        node("start", "startAgentflow", { startInputType: "chatInput" }, "agentFlow"),
        node(
          "agent",
          "agentAgentflow",
          {
            agentModel: "chatOpenAI",
            agentModelConfig: { modelName: "gpt-4o-mini", agentModel: "chatOpenAI" },
            agentMessages: [],
            agentTools: [
              {
                agentSelectedTool: "requestsGet",
                agentSelectedToolConfig: {
                  requestsGetUrl: "<p>http://localhost:5566/events</p>",
                  requestsGetName: "get_events",
                  requestsGetDescription: "Use this when you need to get events",
                  agentSelectedTool: "requestsGet",
                },
              },
            ],
          },
          "agentFlow",
        ),
      ],
      edges: [{ source: "start", sourceHandle: "start-output-startAgentflow", target: "agent", targetHandle: "agent" }],
    });
    expect(r.unmapped).toEqual([]);
    expect(r.dropped).toEqual([]);
    expect(r.graph.nodes.find((n) => n.type === "requestsGet")).toMatchObject({
      data: { inputs: { url: "http://localhost:5566/events", name: "get_events" } },
    });
  });

  it("refuses OpenAI Assistant by name, saying what to use instead", () => {
    const r = convert({
      nodes: [node("assistant_0", "openAIAssistant", { selectedAssistant: "asst_1" })],
      edges: [],
    });
    expect(r.graph.nodes).toEqual([]);
    expect(r.unmapped.map((u) => [u.flowiseType, u.reason])).toEqual([
      ["openAIAssistant", NO_EQUIVALENT_FLOWISE_TYPES.openAIAssistant],
    ]);
    expect(r.unmapped[0].reason).toMatch(/retired.*Tool Agent/);
    for (const name of Object.keys(NO_EQUIVALENT_FLOWISE_TYPES))
      expect(
        flowiseMappings.some((m) => m.flowise === name),
        name,
      ).toBe(false);
  });

  it("Query Engine (LlamaIndex): the model given to its store feeds our engine; each synthesizer maps with its prompts", () => {
    const r = convert({
      nodes: [
        node("claude_0", "chatAnthropic_LlamaIndex", { modelName: "claude-2", temperature: 0.9 }),
        node("pc_0", "pineconeLlamaIndex", { model: "{{claude_0.data.instance}}", pineconeIndex: "docs" }),
        node("synth_0", "treeSummarizeLlamaIndex", { prompt: "Sum {context} for {query}" }),
        node("qe_0", "queryEngine", {
          vectorStoreRetriever: "{{pc_0.data.instance}}",
          responseSynthesizer: "{{synth_0.data.instance}}",
          returnSourceDocuments: true,
        }),
        node("refine_0", "refineLlamaIndex", { refinePrompt: "R {existingAnswer}", textQAPrompt: "Q {context}" }),
        node("simple_0", "simpleResponseBuilderLlamaIndex", {}),
      ],
      edges: [],
    });
    expect(r.unmapped).toEqual([]);
    expect(r.dropped).toEqual([]);
    const byId = Object.fromEntries(r.graph.nodes.map((n) => [n.id, n]));
    expect(byId.qe_0).toMatchObject({ type: "queryEngine", data: { inputs: { returnSourceDocuments: true } } });
    expect(byId.synth_0).toMatchObject({
      type: "treeSummarizeSynthesizer",
      data: { inputs: { prompt: "Sum {context} for {query}" } },
    });
    expect(byId.refine_0).toMatchObject({
      type: "refineSynthesizer",
      data: { inputs: { refinePrompt: "R {existingAnswer}", textQAPrompt: "Q {context}" } },
    });
    expect(byId.simple_0.type).toBe("simpleResponseBuilder");
    expect(r.graph.edges.map((e) => `${e.sourceHandle} ${e.targetHandle}`).sort()).toEqual([
      "claude_0:out:chatModel qe_0:in:model",
      "pc_0:out:retriever qe_0:in:retriever",
      "synth_0:out:responseSynthesizer qe_0:in:responseSynthesizer",
    ]);
  });
});
