import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { AgentflowStep } from "../../agentflow/types";
import type { RuntimeOf } from "../define";
import { callModel, listItems } from "../shared/agentflow";
import type { conditionAgentAgentflowDefinition } from "./definition";

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");

/**
 * The scenario a model's answer names: `{"output": "…"}` or plain text, matched exactly (case and
 * spaces aside), else the one scenario it contains (the longest when several are); -1 for none.
 */
export function matchScenario(answer: string, scenarios: string[]): number {
  let said = answer;
  const json = /\{[\s\S]*\}/.exec(answer)?.[0];
  if (json) {
    try {
      const parsed = JSON.parse(json) as { output?: unknown };
      if (typeof parsed.output === "string") said = parsed.output;
    } catch {
      // Not JSON: the text as it is.
    }
  }
  const wanted = norm(said.replace(/^["'`]+|["'`.]+$/g, ""));
  const exact = scenarios.findIndex((s) => norm(s) === wanted);
  if (exact >= 0) return exact;
  let best = -1;
  scenarios.forEach((s, i) => {
    if (norm(s) && wanted.includes(norm(s)) && (best < 0 || s.length > scenarios[best].length)) best = i;
  });
  return best;
}

/** Condition Agent: the model names a scenario; its branch is taken (`else` for none). */
export const buildConditionAgentStep: RuntimeOf<typeof conditionAgentAgentflowDefinition> = async ({
  params,
  inputs,
}) => {
  const model: BaseChatModel = inputs.model;
  const scenarios = listItems(params.conditionAgentScenarios).map((s) => String(s.scenario ?? ""));
  const step: AgentflowStep = {
    agentflowStep: true,
    async run(ctx) {
      const input = ctx.resolve(params.conditionAgentInput);
      const instructions = params.conditionAgentInstructions ? ctx.resolve(params.conditionAgentInstructions) : "";
      const system = [
        "You decide which scenario the input belongs to.",
        instructions,
        `Scenarios:\n${scenarios.map((s) => `- ${s}`).join("\n")}`,
        'Answer with one JSON object only: {"output": "<the scenario, exactly as written>"}.',
      ]
        .filter(Boolean)
        .join("\n\n");
      const answer = await callModel(model, [new SystemMessage(system), new HumanMessage(input)], {
        ...ctx,
        onToken: undefined,
      });
      const index = matchScenario(answer, scenarios);
      const branch = index < 0 ? "else" : `branch${index}`;
      const conditions = scenarios.map((scenario, i) => ({ scenario, isFulfilled: i === index }));
      return {
        input: { question: input },
        output: { content: index < 0 ? answer : scenarios[index], conditions },
        branch,
      };
    },
  };
  return step;
};
