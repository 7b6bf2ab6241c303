import { describe, expect, it } from "vitest";
import { getDefinition } from "../nodes/registry";
import { convertFlowiseFlow } from "./convert";
import { flowiseMappings } from "./mappings";
import { richTextToText } from "./rich-text";
import type { FlowiseFlow, FlowiseNode } from "./types";

const convert = (flow: FlowiseFlow) => convertFlowiseFlow(flow, flowiseMappings, getDefinition);
const step = (id: string, name: string, inputs: Record<string, unknown> = {}): FlowiseNode => ({
  id,
  type: "agentFlow",
  position: { x: 100, y: 50 },
  data: { name, label: id, inputs },
});
const controlEdge = (source: string, output: string, target: string) => ({
  source,
  sourceHandle: `${source}-output-${output}`,
  target,
  targetHandle: target,
});

describe("Flowise rich text", () => {
  it("becomes our text: paragraphs as lines, mentions as {{variables}}, node outputs without `.output`", () => {
    const mention = (id: string) =>
      `<span class="variable" data-type="mention" data-id="${id}" data-label="${id}">{{ ${id} }}</span>`;
    expect(richTextToText(`<p>${mention("$flow.state.next")} </p>`)).toBe("{{$flow.state.next}}");
    expect(richTextToText("<p>Reply only:</p><p>{{$iteration.item}}</p>")).toBe("Reply only:\n{{$iteration.item}}");
    expect(richTextToText("<p>{{ llmAgentflow_0.output.subject }}</p>")).toBe("{{llmAgentflow_0.subject}}");
    expect(richTextToText(`<p>${mention("output.next")}</p>`)).toBe("{{output.next}}");
    expect(richTextToText("<ol><li><p><strong>Keep</strong><br>all &amp; more</p></li></ol>")).toBe(
      "- Keep\nall & more",
    );
    expect(richTextToText('{\n  "answer": { "type": "string" }\n}')).toBe('{\n  "answer": { "type": "string" }\n}');
  });
});

describe("agentflow steps", () => {
  it("map Flowise's control edges onto branches: conditions by index then else, human input proceed/reject", () => {
    const conditions = [
      { type: "string", value1: "<p>{{ $flow.state.next }}</p>", operation: "equal", value2: "<p>A</p>" },
    ];
    const r = convert({
      nodes: [
        step("start", "startAgentflow", { startInputType: "chatInput", startState: [{ key: "next", value: "" }] }),
        step("cond", "conditionAgentflow", { conditions }),
        step("ask", "humanInputAgentflow", { humanInputDescription: "<p>Sure?</p>" }),
        step("yes", "directReplyAgentflow", { directReplyMessage: "<p>Done: {{ question }}</p>" }),
        step("no", "directReplyAgentflow", { directReplyMessage: "<p>No</p>" }),
      ],
      edges: [
        controlEdge("start", "startAgentflow", "cond"),
        controlEdge("cond", "0", "ask"),
        controlEdge("cond", "1", "no"),
        controlEdge("ask", "0", "yes"),
        controlEdge("ask", "1", "no"),
      ],
    });
    expect(r.unmapped).toEqual([]);
    expect(r.dropped).toEqual([]);
    expect(r.graph.edges.map((e) => `${e.sourceHandle} → ${e.targetHandle}`)).toEqual([
      "start:out:output → cond:in:input",
      "cond:out:branch0 → ask:in:input",
      "cond:out:else → no:in:input",
      "ask:out:proceed → yes:in:input",
      "ask:out:reject → no:in:input",
    ]);
    const inputs = Object.fromEntries(r.graph.nodes.map((n) => [n.id, n.data.inputs]));
    expect(inputs.cond.conditions).toEqual([
      { type: "string", value1: "{{$flow.state.next}}", operation: "equal", value2: "A" },
    ]);
    expect(inputs.yes).toEqual({ directReplyMessage: "Done: {{question}}" });
  });

  it("turn an embedded model into our model node below its step, connected to its model anchor", () => {
    const r = convert({
      nodes: [
        step("llm", "llmAgentflow", {
          llmModel: "chatOllama",
          llmModelConfig: {
            llmModel: "chatOllama",
            baseUrl: "http://127.0.0.1:11434",
            modelName: "llama3.2",
            keepAlive: "5m",
          },
          llmReturnResponseAs: "userMessage",
        }),
      ],
      edges: [],
    });
    expect(r.dropped).toEqual([]);
    expect(r.graph.nodes[1]).toMatchObject({
      id: "llm_model",
      type: "chatOllama",
      position: { x: 100, y: 210 },
      data: { inputs: { baseUrl: "http://127.0.0.1:11434", model: "llama3.2" } },
    });
    expect(r.graph.edges.map((e) => [e.sourceHandle, e.targetHandle])).toEqual([
      ["llm_model:out:chatModel", "llm:in:model"],
    ]);
  });

  it("keep Flowise's summary memories: conversation summary, and summary buffer with its token limit", () => {
    const r = convert({
      nodes: [
        step("llm", "llmAgentflow", {
          llmModel: "chatOllama",
          llmModelConfig: { baseUrl: "http://127.0.0.1:11434", modelName: "llama3.2" },
          llmMemoryType: "conversationSummaryBuffer",
          llmMemoryMaxTokenLimit: "1500",
        }),
        step("agent", "agentAgentflow", {
          agentModel: "chatOllama",
          agentModelConfig: { baseUrl: "http://127.0.0.1:11434", modelName: "llama3.2" },
          agentMemoryType: "conversationSummary",
          agentMemoryMaxTokenLimit: 800,
        }),
      ],
      edges: [],
    });
    expect(r.dropped.filter((d) => d.input.includes("Memory"))).toEqual([]);
    const inputs = (id: string) => r.graph.nodes.find((n) => n.id === id)?.data.inputs;
    expect(inputs("llm")).toMatchObject({ llmMemoryType: "conversationSummaryBuffer", llmMemoryMaxTokenLimit: 1500 });
    expect(inputs("agent")).toMatchObject({ agentMemoryType: "conversationSummary", agentMemoryMaxTokenLimit: 800 });
  });

  it("refuse a model we do not serve and a setting we do not have, naming the step and the input", () => {
    const r = convert({
      nodes: [
        step("llm", "llmAgentflow", { llmModel: "chatCohere", llmModelConfig: { modelName: "x" } }),
        step("llm2", "llmAgentflow", {
          llmModel: "chatOpenAI",
          llmModelConfig: { llmModel: "chatOpenAI", proxyUrl: "http://proxy:8080" },
          llmMemoryType: "vectorMemory",
        }),
      ],
      edges: [],
    });
    expect(r.dropped.map((d) => [d.nodeId, d.input, d.reason])).toEqual([
      ["llm", "llmModel", expect.stringContaining("chatCohere")],
      ["llm2", "llmMemoryType", expect.stringContaining("vectorMemory")],
      ["llm2", "llmModelConfig.proxyUrl", expect.stringContaining("no equivalent")],
    ]);
  });
});
