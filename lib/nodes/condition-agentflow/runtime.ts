import type { AgentflowStep } from "../../agentflow/types";
import type { RuntimeOf } from "../define";
import { listItems } from "../shared/agentflow";
import type { conditionAgentflowDefinition } from "./definition";
import { type ConditionRule, ruleHolds } from "./rules";

function resolveValue(value: unknown, resolve: (t: string) => string): unknown {
  return typeof value === "string" ? resolve(value) : value;
}

/** Condition: the first rule that holds takes `branchN`; none: `else`. */
export const buildConditionStep: RuntimeOf<typeof conditionAgentflowDefinition> = async ({ params }) => {
  const rules = listItems(params.conditions);
  const step: AgentflowStep = {
    agentflowStep: true,
    pure: true,
    async run(ctx) {
      const resolved: ConditionRule[] = rules.map((r) => ({
        type: r.type === "number" || r.type === "boolean" ? r.type : "string",
        operation: typeof r.operation === "string" ? r.operation : "equal",
        value1: resolveValue(r.value1, ctx.resolve),
        value2: resolveValue(r.value2, ctx.resolve),
      }));
      const index = resolved.findIndex(ruleHolds);
      const branch = index < 0 ? "else" : `branch${index}`;
      const conditions = [
        ...resolved.map((r, i) => ({ ...r, isFulfilled: i === index })),
        { type: "string", value1: "", operation: "equal", value2: "", isFulfilled: index < 0 },
      ];
      return { input: { conditions: resolved }, output: { content: branch, conditions }, branch };
    },
  };
  return step;
};
