import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { Ajv2020 } from "ajv/dist/2020.js";
import { AppError } from "@/common/errors";
import type { StepContext } from "../../agentflow/types";
import { callModel, listItems } from "../shared/agentflow";

/**
 * Structured output of an LLM step: the keys a builder declares become a JSON schema, the model is
 * asked for one JSON object, and its answer is checked; a broken answer gets one repair attempt
 * (the model sees what was wrong), then the step fails with 502 naming the node.
 */

const ajv = new Ajv2020({ allErrors: true, strict: false });

function keySchema(item: Record<string, unknown>, label: string): Record<string, unknown> {
  const description = typeof item.description === "string" && item.description ? { description: item.description } : {};
  switch (item.type) {
    case "stringArray":
      return { type: "array", items: { type: "string" }, ...description };
    case "number":
      return { type: "number", ...description };
    case "boolean":
      return { type: "boolean", ...description };
    case "enum": {
      const values = String(item.enumValues ?? "")
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);
      return { type: "string", enum: values, ...description };
    }
    case "jsonArray": {
      let items: unknown = {};
      try {
        items = item.jsonSchema ? JSON.parse(String(item.jsonSchema)) : {};
      } catch {
        throw new AppError("invalid_graph", `Node ${label}: the JSON schema of key "${String(item.key)}" is not JSON.`);
      }
      return { type: "array", items, ...description };
    }
    default:
      return { type: "string", ...description };
  }
}

/** The JSON schema of a structured-output list, or undefined when it declares no key. */
export function structuredSchema(list: unknown, label: string): Record<string, unknown> | undefined {
  const items = listItems(list).filter((i) => typeof i.key === "string" && i.key !== "");
  if (!items.length) return undefined;
  return {
    type: "object",
    properties: Object.fromEntries(items.map((i) => [i.key as string, keySchema(i, label)])),
    required: items.map((i) => i.key as string),
  };
}

function parseObject(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const body = (fenced ?? text).trim();
  const start = body.indexOf("{");
  const end = body.lastIndexOf("}");
  if (start < 0 || end < start) throw new Error("the answer holds no JSON object");
  return JSON.parse(body.slice(start, end + 1));
}

/** The problem with an answer against the schema, or the object. */
function check(
  text: string,
  schema: Record<string, unknown>,
): { value: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = parseObject(text);
  } catch (e) {
    return { problem: (e as Error).message };
  }
  const validate = ajv.compile(schema);
  if (validate(value)) return { value: value as Record<string, unknown> };
  const problem = (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message}`).join("; ");
  return { problem };
}

/** Asks for the structured answer (one repair attempt); 502 naming the node when it stays broken. */
export async function structuredAnswer(
  model: BaseChatModel,
  messages: BaseMessage[],
  schema: Record<string, unknown>,
  ctx: StepContext,
): Promise<Record<string, unknown>> {
  const instruction = new SystemMessage(
    `Answer with one JSON object only, no other text, matching this JSON schema:\n${JSON.stringify(schema)}`,
  );
  const asked = [instruction, ...messages];
  const quiet = { ...ctx, onToken: undefined };
  const first = await callModel(model, asked, quiet);
  const firstCheck = check(first, schema);
  if ("value" in firstCheck) return firstCheck.value;
  const repair = [
    ...asked,
    new AIMessage(first),
    new HumanMessage(`That answer is not valid (${firstCheck.problem}). Answer again with the JSON object only.`),
  ];
  const second = check(await callModel(model, repair, quiet), schema);
  if ("value" in second) return second.value;
  throw new AppError(
    "upstream_error",
    `Node "${ctx.label}" (${ctx.nodeId}): the model's structured output stayed invalid after one repair attempt: ${second.problem}`,
  );
}
