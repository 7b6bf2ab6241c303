import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { Ajv2020 } from "ajv/dist/2020.js";
import { AppError } from "@/common/errors";
import { NO_STREAM_TAG } from "../events";
import { childConfig } from "./flow-chain";
import { messageText } from "./messages";

/**
 * Output parsers of the LLM chain (the Output Parsers nodes build one): what the model is told about
 * the format, and the check of its answer. A broken answer gets one repair attempt (the model sees
 * what was wrong), then the run fails with 502 naming the parser.
 */
export interface FlowOutputParser {
  /** The parser as errors name it: its label and node id. */
  readonly name: string;
  /** Said to the model as a system message before the prompt. */
  readonly instructions: string;
  /** The answer's value, or what is wrong with it. */
  check(text: string): { value: unknown } | { problem: string };
}

const ajv = new Ajv2020({ allErrors: true, strict: false });

function jsonIn(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const body = (fenced ?? text).trim();
  const start = body.indexOf("{");
  const end = body.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error("the answer holds no JSON object");
  return JSON.parse(body.slice(start, end + 1));
}

/** A parser of one JSON object matching a JSON schema (the structured parsers). Throws when the schema is not one. */
export function jsonSchemaParser(name: string, schema: Record<string, unknown>): FlowOutputParser {
  const validate = ajv.compile(schema);
  return {
    name,
    // The same words as the agentflow LLM's structured output (the scripted model answers them).
    instructions: `Answer with one JSON object only, no other text, matching this JSON schema:\n${JSON.stringify(schema)}`,
    check(text) {
      let value: unknown;
      try {
        value = jsonIn(text);
      } catch (e) {
        return { problem: (e as Error).message };
      }
      if (validate(value)) return { value };
      return { problem: (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message}`).join("; ") };
    },
  };
}

/** A parser of a comma-separated list on one line (LangChain's CSV list parser, checked). */
export function commaListParser(name: string): FlowOutputParser {
  return {
    name,
    instructions:
      "Your response should be a list of comma separated values on one line, eg: `foo, bar, baz`. No other text.",
    check(text) {
      const line = text.trim();
      if (!line) return { problem: "the answer is empty" };
      if (/\n/.test(line)) return { problem: "the answer spans several lines; the list must be one line" };
      const items = line
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      return items.length ? { value: items } : { problem: "the answer holds no values" };
    },
  };
}

/** Whether a built input is an output parser (what the parser nodes build). */
export function isOutputParser(value: unknown): value is FlowOutputParser {
  return !!value && typeof value === "object" && typeof (value as FlowOutputParser).check === "function";
}

/**
 * Asks the model with the parser's instructions and returns the parsed value as JSON text; one
 * repair attempt with the problem, then 502 naming the parser. Not streamed: only a checked
 * answer reaches the user.
 */
export async function askWithParser(
  model: BaseChatModel,
  messages: BaseMessage[],
  parser: FlowOutputParser,
  runManager?: CallbackManagerForChainRun,
  signal?: AbortSignal,
): Promise<string> {
  const config = childConfig(runManager, signal, [NO_STREAM_TAG]);
  const asked = [new SystemMessage(parser.instructions), ...messages];
  const first = messageText(await model.invoke(asked, config));
  const firstCheck = parser.check(first);
  if ("value" in firstCheck) return JSON.stringify(firstCheck.value);
  const repair = [
    ...asked,
    new AIMessage(first),
    new HumanMessage(
      `That answer is not in the format asked (${firstCheck.problem}). Answer again in that format only.`,
    ),
  ];
  const second = parser.check(messageText(await model.invoke(repair, config)));
  if ("value" in second) return JSON.stringify(second.value);
  throw new AppError(
    "upstream_error",
    `Output parser ${parser.name}: the model's answer stayed out of format after one repair attempt: ${second.problem}`,
  );
}
