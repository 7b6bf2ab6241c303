import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { AppError } from "@/common/errors";
import { NO_STREAM_TAG, recordSourceDocuments } from "../events";
import { childConfig, FlowChain, type ChainTurn } from "./flow-chain";
import { messageText } from "./messages";
import type { QueryEngineToolSpec } from "./query-engine";
import { DEFAULT_SYNTHESIZER, type ResponseSynthesizer, synthesize } from "./response-synthesis";

/**
 * The sub-question query engine (LlamaIndex's SubQuestionQueryEngine, our own code): the model
 * splits the question into sub-questions, each for one of the query engine tools (as JSON); each
 * tool's engine answers its sub-question from its documents; the answers ("Sub question: …
 * Response: …") are synthesised into one answer to the question. A reply that is not the JSON asked
 * for gets one repair attempt naming the problem, then 502 naming the node.
 */

export interface SubQuestion {
  question: string;
  tool: string;
}

/** The question-generation prompt: the tools as JSON, the question, the shape of the answer. */
export function subQuestionPrompt(tools: readonly QueryEngineToolSpec[], question: string): string {
  const list = JSON.stringify(
    tools.map((t) => ({ name: t.name, description: t.description })),
    null,
    2,
  );
  return [
    "Break the user question below into sub-questions, each answered by one of the tools.",
    "Each tool answers questions about its own documents: give it a self-contained question.",
    "Use only the tool names listed. Answer with JSON only, in this shape:",
    '{"items": [{"sub_question": "…", "tool_name": "…"}]}',
    "",
    `Tools:\n${list}`,
    "",
    `User question: ${question}`,
  ].join("\n");
}

/** Reads the model's sub-questions; a string naming the problem when the reply is not usable. */
export function parseSubQuestions(text: string, toolNames: ReadonlySet<string>): SubQuestion[] | string {
  const body = text.replace(/^\s*```(?:json)?\s*/i, "").replace(/\s*```\s*$/, "");
  const start = body.search(/[[{]/);
  let parsed: unknown;
  try {
    parsed = JSON.parse(start >= 0 ? body.slice(start) : body);
  } catch {
    return "the reply is not JSON";
  }
  const items = Array.isArray(parsed) ? parsed : (parsed as { items?: unknown })?.items;
  if (!Array.isArray(items)) return 'the JSON has no "items" list';
  const out: SubQuestion[] = [];
  for (const [i, raw] of items.entries()) {
    const item = (raw ?? {}) as Record<string, unknown>;
    const question = item.sub_question ?? item.subQuestion;
    const tool = item.tool_name ?? item.toolName;
    if (typeof question !== "string" || !question.trim() || typeof tool !== "string")
      return `item ${i + 1} needs "sub_question" and "tool_name" as text`;
    if (!toolNames.has(tool))
      return `item ${i + 1} names tool "${tool}", which is not one of ${[...toolNames].join(", ")}`;
    out.push({ question: question.trim(), tool });
  }
  return out;
}

export interface SubQuestionEngineOptions {
  label: string;
  model: BaseChatModel;
  tools: QueryEngineToolSpec[];
  synthesizer?: ResponseSynthesizer;
  returnSourceDocuments: boolean;
}

export class SubQuestionQueryEngine extends FlowChain {
  constructor(private readonly opts: SubQuestionEngineOptions) {
    super({});
  }

  _chainType() {
    return "switchyard_sub_question_query_engine";
  }

  private async subQuestions(question: string, runManager?: CallbackManagerForChainRun, signal?: AbortSignal) {
    const names = new Set(this.opts.tools.map((t) => t.name));
    const messages: BaseMessage[] = [new HumanMessage(subQuestionPrompt(this.opts.tools, question))];
    let problem = "";
    for (let attempt = 0; attempt < 2; attempt++) {
      const reply = await this.opts.model.invoke(messages, childConfig(runManager, signal, [NO_STREAM_TAG]));
      const parsed = parseSubQuestions(messageText(reply), names);
      if (typeof parsed !== "string") return parsed;
      problem = parsed;
      messages.push(
        new AIMessage(messageText(reply)),
        new HumanMessage(`That answer cannot be used: ${problem}. Answer again with the JSON only.`),
      );
    }
    throw new AppError(
      "upstream_error",
      `${this.opts.label}: the model's sub-questions could not be used, after one repair attempt (${problem}).`,
    );
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const { signal } = turn;
    const subs = await this.subQuestions(turn.question, runManager, signal);
    const byName = new Map(this.opts.tools.map((t) => [t.name, t]));
    const pairs: string[] = [];
    const sources = [];
    for (const sub of subs) {
      const found = await byName.get(sub.tool)!.engine.query(sub.question, { runManager, signal, stream: false });
      pairs.push(`Sub question: ${sub.question}\nResponse: ${found.text}`);
      sources.push(...found.sourceDocuments);
    }
    if (this.opts.returnSourceDocuments) await recordSourceDocuments(runManager, sources);
    return synthesize(this.opts.synthesizer ?? DEFAULT_SYNTHESIZER, {
      model: this.opts.model,
      query: turn.question,
      chunks: pairs,
      runManager,
      signal,
      stream: true,
    });
  }
}
