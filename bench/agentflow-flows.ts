// The agentflows of the agentflow benches (bench/agentflow.ts, bench/flowise.ts), written once as
// Flowise Agentflow V2 exports: Flowise gets them as they are (POST /api/v1/chatflows with flowData),
// Switchyard through its Flowise import (POST /api/v1/chatflows/import, or convertFlowiseFlow in
// process), so both sides run the same flow. Every model is Flowise's chatOpenAI pointed at the
// calling process's scripted model; the HTTP step calls the calling process's product API.
import type { Brain } from "../dev/model-stub/brain";
import { demoBrain } from "../dev/model-stub/brain";
import { PRODUCTS_PATH } from "../dev/product-api/server";

export interface FlowiseExport {
  nodes: Record<string, unknown>[];
  edges: Record<string, unknown>[];
}

export interface FlowTargets {
  /** The scripted model's base URL, ending in /v1. */
  modelUrl: string;
  /** The product API's origin (the HTTP step's target). */
  productApiUrl: string;
  /** Flowise's credential id for its chatOpenAI models (our import leaves it to connect). */
  credentialId?: string;
}

function model(t: FlowTargets, prefix: "llm" | "agent") {
  return {
    [`${prefix}Model`]: "chatOpenAI",
    [`${prefix}ModelConfig`]: {
      [`${prefix}Model`]: "chatOpenAI",
      credential: t.credentialId ?? "",
      FLOWISE_CREDENTIAL_ID: t.credentialId ?? "",
      modelName: "gpt-4o-mini",
      temperature: 0,
      streaming: false,
      basepath: t.modelUrl,
    },
  };
}

function step(
  id: string,
  name: string,
  label: string,
  inputs: Record<string, unknown>,
  x: number,
  extra: Record<string, unknown> = {},
) {
  return {
    id,
    type: "agentFlow",
    position: { x, y: 100 },
    ...extra,
    data: { id, name, label, type: name.replace(/Agentflow$/, ""), inputs },
  };
}

/** Flowise's control edge; `output` is the source's output anchor (a Condition's branch index). */
function edge(source: string, target: string, output?: number) {
  const name = source.replace(/_\d+$/, "");
  const sourceHandle = `${source}-output-${output ?? name}`;
  return {
    id: `${source}-${sourceHandle}-${target}-${target}`,
    source,
    sourceHandle,
    target,
    targetHandle: target,
    type: "agentFlow",
    data: output === undefined ? {} : { edgeLabel: String(output) },
  };
}

/**
 * Start → LLM → Condition → Direct Reply: the engine's per-node overhead. The Condition holds when
 * the LLM answered anything (always, with the scripted model); its else branch is left unconnected.
 */
export function fourNodeFlow(t: FlowTargets): FlowiseExport {
  return {
    nodes: [
      step("startAgentflow_0", "startAgentflow", "Start", { startInputType: "chatInput", startState: "" }, 0),
      step(
        "llmAgentflow_0",
        "llmAgentflow",
        "Answer",
        {
          ...model(t, "llm"),
          llmMessages: [{ role: "system", content: "Answer briefly." }],
          llmEnableMemory: false,
          llmUserMessage: "{{ question }}",
          llmReturnResponseAs: "userMessage",
        },
        200,
      ),
      step(
        "conditionAgentflow_0",
        "conditionAgentflow",
        "Answered?",
        { conditions: [{ type: "string", value1: "{{ llmAgentflow_0 }}", operation: "notEmpty", value2: "" }] },
        400,
      ),
      step(
        "directReplyAgentflow_0",
        "directReplyAgentflow",
        "Reply",
        { directReplyMessage: "{{ llmAgentflow_0 }}" },
        600,
      ),
    ],
    edges: [
      edge("startAgentflow_0", "llmAgentflow_0"),
      edge("llmAgentflow_0", "conditionAgentflow_0"),
      edge("conditionAgentflow_0", "directReplyAgentflow_0", 0),
    ],
  };
}

/** Rounds the ten-node flow goes through its loop (the Condition sends round ROUNDS + 1 to the end). */
export const ROUNDS = 2;

/**
 * Ten steps: Start → Custom Function (counts the round into flow state) → LLM → Condition: while
 * round ≤ ROUNDS → HTTP (the product API) → Agent with one tool (current date and time) → Loop back
 * to the Custom Function; else → Iteration over two items (an LLM inside) → Direct Reply. One run
 * takes 1 + 3 × (ROUNDS + 1) + 3 × ROUNDS + 1 (Iteration) + 2 (its LLM, twice) + 1 steps — 20 with
 * ROUNDS = 2 — and makes (ROUNDS + 1) + 2 × ROUNDS + 2 model calls (9) and ROUNDS product-API calls.
 */
export function tenNodeFlow(t: FlowTargets): FlowiseExport {
  const counter = ["const round = Number($flow.state.round || 0) + 1;", "return String(round);"].join("\n");
  return {
    nodes: [
      step(
        "startAgentflow_0",
        "startAgentflow",
        "Start",
        { startInputType: "chatInput", startState: [{ key: "round", value: "0" }] },
        0,
      ),
      step(
        "customFunctionAgentflow_0",
        "customFunctionAgentflow",
        "Count round",
        {
          customFunctionInputVariables: "",
          customFunctionJavascriptFunction: counter,
          customFunctionUpdateState: [{ key: "round", value: "{{ output }}" }],
        },
        200,
      ),
      step(
        "llmAgentflow_0",
        "llmAgentflow",
        "Plan",
        {
          ...model(t, "llm"),
          llmMessages: [{ role: "system", content: "Plan the next step briefly." }],
          llmEnableMemory: false,
          llmUserMessage: "{{ question }} (round {{ $flow.state.round }})",
          llmReturnResponseAs: "userMessage",
        },
        400,
      ),
      step(
        "conditionAgentflow_0",
        "conditionAgentflow",
        "More rounds?",
        {
          conditions: [
            { type: "number", value1: "{{ $flow.state.round }}", operation: "smallerEqual", value2: String(ROUNDS) },
          ],
        },
        600,
      ),
      step(
        "httpAgentflow_0",
        "httpAgentflow",
        "Products",
        {
          method: "GET",
          url: `${t.productApiUrl}${PRODUCTS_PATH}`,
          headers: "",
          queryParams: [
            { key: "q", value: "laptop" },
            { key: "countryCode", value: "DE" },
          ],
          bodyType: "json",
          body: "",
          responseType: "json",
        },
        800,
      ),
      step(
        "agentAgentflow_0",
        "agentAgentflow",
        "Agent",
        {
          ...model(t, "agent"),
          agentMessages: [{ role: "system", content: "Tell the date, then summarise." }],
          agentTools: [
            { agentSelectedTool: "currentDateTime", agentSelectedToolConfig: { agentSelectedTool: "currentDateTime" } },
          ],
          agentEnableMemory: false,
          agentUserMessage: "What is the date today? (round {{ $flow.state.round }})",
          agentReturnResponseAs: "userMessage",
        },
        1000,
      ),
      step(
        "loopAgentflow_0",
        "loopAgentflow",
        "Again",
        { loopBackToNode: "customFunctionAgentflow_0-Count round", maxLoopCount: ROUNDS + 2 },
        1200,
      ),
      step(
        "iterationAgentflow_0",
        "iterationAgentflow",
        "Each item",
        { iterationInput: '[{"item": "first"}, {"item": "second"}]' },
        800,
        { width: 300, height: 200 },
      ),
      step(
        "llmAgentflow_1",
        "llmAgentflow",
        "Item",
        {
          ...model(t, "llm"),
          // A list, not "": Flowise 3.1.4's LLM step fails on "" inside an Iteration ("llmMessages.some
          // is not a function"), though its own Iterations template saves it so.
          llmMessages: [{ role: "system", content: "Reply briefly." }],
          llmEnableMemory: false,
          llmUserMessage: "Reply only: {{ $iteration.item }}",
          llmReturnResponseAs: "userMessage",
        },
        40,
        { parentNode: "iterationAgentflow_0", extent: "parent" },
      ),
      step(
        "directReplyAgentflow_0",
        "directReplyAgentflow",
        "Reply",
        { directReplyMessage: "Done after round {{ $flow.state.round }}: {{ iterationAgentflow_0 }}" },
        1200,
      ),
    ],
    edges: [
      edge("startAgentflow_0", "customFunctionAgentflow_0"),
      edge("customFunctionAgentflow_0", "llmAgentflow_0"),
      edge("llmAgentflow_0", "conditionAgentflow_0"),
      edge("conditionAgentflow_0", "httpAgentflow_0", 0),
      edge("conditionAgentflow_0", "iterationAgentflow_0", 1),
      edge("httpAgentflow_0", "agentAgentflow_0"),
      edge("agentAgentflow_0", "loopAgentflow_0"),
      edge("iterationAgentflow_0", "directReplyAgentflow_0"),
    ],
  };
}

/**
 * The scripted model of the agentflow benches: an offered date-and-time tool is called once, then
 * the demo brain answers (small talk, the product-search agent's tool call and summary) at once.
 */
export const agentflowBrain: Brain = (request) => {
  const last = request.messages.at(-1);
  const dateTool = request.tools.find((tool) => /date|time/i.test(tool.name));
  if (dateTool && last?.role !== "tool") return { toolCalls: [{ name: dateTool.name, arguments: {} }] };
  if (dateTool && last?.role === "tool") return { content: "Today is a good day for a laptop." };
  return demoBrain(request);
};
