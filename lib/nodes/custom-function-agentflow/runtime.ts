import { AppError } from "@/common/errors";
import type { AgentflowStep } from "../../agentflow/types";
import { type Json, runInSandbox, sandboxAppError } from "../../sandbox";
import type { RuntimeOf } from "../define";
import { listItems, stateUpdates } from "../shared/agentflow";
import type { customFunctionAgentflowDefinition } from "./definition";

/** The names the sandbox gives the code itself; an input variable may not take one. */
const RESERVED = new Set(["input", "flow", "vars"]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** State values as JSON (a value that is not JSON, e.g. undefined, is left out). */
function asJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value ?? null)) as Json;
}

/**
 * Custom Function: the code runs in lib/sandbox (QuickJS on a worker thread) and never in this
 * process; a failure (an error, the time or memory limit, a result that is not JSON) ends the node
 * with the sandbox's code and the limit named. Its result is journaled like a tool call's.
 */
export const buildCustomFunctionStep: RuntimeOf<typeof customFunctionAgentflowDefinition> = async ({
  params,
  label,
}) => {
  const variables = listItems(params.customFunctionInputVariables).filter(
    (v) => typeof v.variableName === "string" && v.variableName !== "",
  );
  for (const v of variables) {
    const name = v.variableName as string;
    if (!IDENTIFIER.test(name) || RESERVED.has(name))
      throw new AppError(
        "invalid_graph",
        `${label}: input variable "${name}" must be an identifier other than input, flow and vars.`,
      );
  }
  const step: AgentflowStep = {
    agentflowStep: true,
    async run(ctx) {
      const named = Object.fromEntries(
        variables.map((v) => [v.variableName as string, ctx.resolve(String(v.variableValue ?? ""))]),
      );
      const flow = { ...ctx.ids, input: ctx.question, state: asJson(ctx.state) };
      let value = ctx.journal.get("result") as Json | undefined;
      if (value === undefined) {
        const outcome = await runInSandbox({
          code: params.customFunctionJavascriptFunction,
          variables: { input: ctx.question, flow, vars: { ...ctx.vars }, ...named },
        });
        if (!outcome.ok) throw sandboxAppError(outcome.error, `Custom Function "${ctx.label}" (${ctx.nodeId})`);
        value = outcome.value;
        await ctx.journal.record("result", value);
      }
      const content = typeof value === "string" ? value : JSON.stringify(value, null, 2);
      ctx.onToken?.(content);
      const output = { content, value };
      const state = stateUpdates(params.customFunctionUpdateState, ctx, output);
      return { input: { inputVariables: named }, output, ...(state ? { state } : {}) };
    },
  };
  return step;
};
