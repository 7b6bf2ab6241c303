import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import { NO_STREAM_TAG, recordToolStart, recordUsedTool } from "../events";
import { MAX_ITERATIONS_TEXT } from "../tool-agent/agent";
import { childConfig, FlowChain, type ChainTurn } from "./flow-chain";
import type { ChatHistoryMemory } from "./memory";
import { humanMessage, messageText } from "./messages";
import { traceRequests } from "../../security/request-trace";

/**
 * Agents that call tools through the text of their answers rather than the model's function calling
 * (Flowise's Conversational Agent and ReAct Agent for chat models): any chat model can drive them.
 * Each step the model answers in a fixed format naming a tool and its input, or the final answer;
 * the tool's output is given back as the next message. A reply that follows no format is taken as
 * the final answer; a throwing tool becomes an observation "Tool error: …" and the agent goes on.
 * Model calls are not streamed (they hold the format); the final answer is the run's text.
 */

export type AgentStep = { tool: string; input: unknown } | { final: string };

/** How one kind of text agent talks to its model. */
export interface TextAgentFormat {
  /** The messages of the first step. */
  start(args: {
    systemMessage: string;
    tools: string;
    toolNames: string;
    history: BaseMessage[];
    question: HumanMessage;
  }): BaseMessage[];
  /** Reads the model's reply. */
  parse(text: string): AgentStep;
  /** The messages after a tool ran: the model's reply and the observation. */
  observe(messages: BaseMessage[], reply: string, observation: string): BaseMessage[];
  /** Stop sequences for the model, when the format has them. */
  stop?: string[];
}

export interface TextAgentOptions {
  model: BaseChatModel;
  tools: StructuredToolInterface[];
  systemMessage: string;
  maxIterations: number;
  memory?: ChatHistoryMemory;
  format: TextAgentFormat;
  chainType: string;
}

/** One tool as the prompt lists it: name, description and (for several arguments) their JSON schema. */
export function describeTool(tool: StructuredToolInterface): string {
  const schema = toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]) as { properties?: object };
  const props = schema.properties ? JSON.stringify(schema.properties) : "";
  return `${tool.name}: ${tool.description}${props ? ` Input: ${props}` : ""}`;
}

/**
 * The tool's arguments from what the model wrote: an object as is, a JSON object text parsed, and
 * plain text given to the tool's one argument (a calculator's expression, a chain tool's input).
 */
export function toolArgs(tool: StructuredToolInterface, input: unknown): unknown {
  let value = input;
  if (typeof value === "string" && value.trim().startsWith("{")) {
    try {
      value = JSON.parse(value);
    } catch {
      // plain text after all
    }
  }
  if (typeof value === "object" && value !== null) return value;
  const schema = toJsonSchema(tool.schema as Parameters<typeof toJsonSchema>[0]) as { properties?: object };
  const keys = Object.keys(schema.properties ?? {});
  return keys.length === 1 ? { [keys[0]]: String(value ?? "") } : value;
}

export class TextAgentChain extends FlowChain {
  private readonly toolsByName: Map<string, StructuredToolInterface>;

  constructor(private readonly opts: TextAgentOptions) {
    super({});
    this.toolsByName = new Map(opts.tools.map((t) => [t.name, t]));
  }

  _chainType() {
    return this.opts.chainType;
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const { format, tools } = this.opts;
    let messages = format.start({
      systemMessage: this.opts.systemMessage,
      tools: tools.map(describeTool).join("\n"),
      toolNames: tools.map((t) => t.name).join(", "),
      history: this.opts.memory ? this.opts.memory.messagesFor(turn.history) : [],
      question: humanMessage(turn.question, turn.images),
    });
    for (let i = 0; i < this.opts.maxIterations; i++) {
      const reply = await this.opts.model.invoke(messages, {
        ...childConfig(runManager, turn.signal, [NO_STREAM_TAG]),
        ...(format.stop ? { stop: format.stop } : {}),
      });
      const text = messageText(reply);
      const step = format.parse(text);
      if ("final" in step) return step.final;
      const { output, direct } = await this.runTool(step, turn.signal, runManager);
      if (direct) return output;
      messages = format.observe(messages, text, output);
    }
    return MAX_ITERATIONS_TEXT;
  }

  private async runTool(
    step: { tool: string; input: unknown },
    signal: AbortSignal | undefined,
    runManager?: CallbackManagerForChainRun,
  ): Promise<{ output: string; direct: boolean }> {
    const tool = this.toolsByName.get(step.tool);
    const args = tool ? toolArgs(tool, step.input) : step.input;
    await recordToolStart(runManager, step.tool, args);
    let output = "";
    let failed = false;
    // The HTTP requests the tool makes are listed with its call (request-trace.ts).
    const { requests } = await traceRequests(async () => {
      try {
        if (!tool)
          throw new Error(
            `there is no tool named "${step.tool}"; available: ${[...this.toolsByName.keys()].join(", ")}`,
          );
        const result: unknown = await tool.invoke(args, childConfig(runManager, signal));
        output = typeof result === "string" ? result : JSON.stringify(result);
      } catch (e) {
        if (signal?.aborted) throw e;
        failed = true;
        output = `Tool error: ${e instanceof Error ? e.message : String(e)}`;
      }
    });
    await recordUsedTool(runManager, {
      tool: step.tool,
      toolInput: args,
      toolOutput: output,
      ...(requests.length ? { requests } : {}),
    });
    return { output, direct: !failed && tool?.returnDirect === true };
  }
}

/** The first JSON object of a text (inside a ```json fence or bare), or undefined. */
function jsonBlob(text: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const candidates = [fenced, text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)];
  for (const c of candidates) {
    if (!c?.trim()) continue;
    try {
      const v: unknown = JSON.parse(c);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // next candidate
    }
  }
  return undefined;
}

/**
 * The Conversational Agent's format: the model answers a JSON blob `{"action", "action_input"}`,
 * "Final Answer" as the action to answer the user; the tool's output comes back as the user's next message.
 */
export const conversationalFormat: TextAgentFormat = {
  start: ({ systemMessage, tools, history, question }) => [
    new SystemMessage(
      `${systemMessage}\n\nTOOLS\n-----\nYou may use these tools to look up information that helps to answer the user:\n\n${tools}\n\n` +
        "RESPONSE FORMAT\n---------------\nAlways answer with a markdown code snippet of one JSON object and nothing else, in one of two forms.\n" +
        'To use a tool: ```json\n{"action": "<one of the tool names>", "action_input": "<the tool\'s input>"}\n```\n' +
        'To answer the user: ```json\n{"action": "Final Answer", "action_input": "<your answer>"}\n```',
    ),
    ...history,
    question,
  ],
  parse(text) {
    const blob = jsonBlob(text);
    if (!blob || typeof blob.action !== "string") return { final: text.trim() };
    if (/^final answer$/i.test(blob.action.trim()))
      return { final: typeof blob.action_input === "string" ? blob.action_input : JSON.stringify(blob.action_input) };
    return { tool: blob.action.trim(), input: blob.action_input };
  },
  observe: (messages, reply, observation) => [
    ...messages,
    new AIMessage(reply),
    new HumanMessage(
      `TOOL RESPONSE:\n---------------------\n${observation}\n\n` +
        "Answer my last message now, using what the tool said where it helps (without naming the tool). " +
        "Remember to answer with a markdown code snippet of one JSON object and nothing else.",
    ),
  ],
};

/**
 * The ReAct format for chat models: "Thought / Action / Action Input", the output given back as
 * "Observation", until "Final Answer". History and the steps so far are written into the prompt.
 */
export const reactChatFormat: TextAgentFormat = {
  stop: ["\nObservation:"],
  start: ({ systemMessage, tools, toolNames, history, question }) => {
    const past = history.map((m) => `${m.getType() === "human" ? "Human" : "AI"}: ${messageText(m)}`).join("\n");
    const prompt =
      `${systemMessage}\n\nTOOLS:\n------\nYou have access to the following tools:\n\n${tools}\n\n` +
      "To use a tool, use exactly this format:\n\nThought: Do I need to use a tool? Yes\n" +
      `Action: the action to take, one of [${toolNames}]\nAction Input: the input to the action\nObservation: the result of the action\n\n` +
      "When you have a response for the Human, or do not need a tool, you MUST use the format:\n\n" +
      "Thought: Do I need to use a tool? No\nFinal Answer: [your response here]\n\nBegin!\n\n" +
      `Previous conversation history:\n${past}\n\nNew input: ${messageText(question)}\n`;
    return [new HumanMessage({ content: [{ type: "text", text: prompt }, ...imageParts(question)] })];
  },
  parse(text) {
    const upToObservation = text.split(/\nObservation:/)[0];
    const final = /Final Answer:\s*([\s\S]*)$/.exec(upToObservation);
    const action = /Action:\s*(.+?)\s*\nAction Input:\s*([\s\S]*)$/.exec(upToObservation);
    if (action && (!final || action.index < final.index)) {
      const input = action[2].trim().replace(/^"([\s\S]*)"$/, "$1");
      return { tool: action[1].trim().replace(/^\[|\]$/g, ""), input };
    }
    return { final: final ? final[1].trim() : text.trim() };
  },
  observe: (messages, reply, observation) => {
    const first = messages[0] as HumanMessage;
    const parts = Array.isArray(first.content) ? [...first.content] : [{ type: "text", text: String(first.content) }];
    const head = parts[0] as { type: "text"; text: string };
    const step = `${reply.split(/\nObservation:/)[0].trimEnd()}\nObservation: ${observation}\nThought:`;
    return [new HumanMessage({ content: [{ type: "text", text: `${head.text}${step}\n` }, ...parts.slice(1)] })];
  },
};

/** The image parts of a human message (a ReAct prompt carries the question's images along). */
function imageParts(message: HumanMessage) {
  return Array.isArray(message.content) ? message.content.filter((p) => p.type !== "text") : [];
}
