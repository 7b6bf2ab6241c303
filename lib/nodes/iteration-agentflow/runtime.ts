import { AppError } from "@/common/errors";
import { type AgentflowStep, ITERATION_WAITING_KEY, type IterationPass, type StepContext } from "../../agentflow/types";
import type { RuntimeOf } from "../define";
import type { iterationAgentflowDefinition } from "./definition";

function items(text: string, ctx: StepContext): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!Array.isArray(value))
    throw new AppError(
      "unprocessable",
      `Iteration "${ctx.label}" (${ctx.nodeId}): the array input is not a JSON array: ${text.slice(0, 200)}`,
    );
  return value;
}

/** Runs `count` tasks, at most `limit` at once; results in task order. */
async function bounded<T>(count: number, limit: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}

/**
 * Iteration: one pass of the sub-graph per item (the engine runs it), at most `iterationConcurrency`
 * at once; a finished pass is journaled, so a run continued after a crash runs only the passes that
 * had not finished. The passes' state changes are applied in item order. A pass that reaches a Human
 * Input pauses the run at that node; the resume goes on with that pass, the finished ones kept.
 */
export const buildIterationStep: RuntimeOf<typeof iterationAgentflowDefinition> = async ({ params }) => {
  const step: AgentflowStep = {
    agentflowStep: true,
    async run(ctx) {
      const list = items(ctx.resolve(params.iterationInput), ctx);
      const runPass = ctx.runIteration;
      if (!runPass) throw new AppError("invalid_graph", `Iteration "${ctx.label}" (${ctx.nodeId}) holds no nodes.`);
      const waits: { index: number; pass: IterationPass }[] = [];
      const passes = await bounded(list.length, params.iterationConcurrency, async (i) => {
        const key = `pass:${i}`;
        const stored = ctx.journal.get(key) as IterationPass | undefined;
        if (stored) return stored;
        // Once a pass waits for a person, no further pass starts (those running finish).
        if (waits.length) return undefined;
        const pass = await runPass(list[i], i);
        if (pass.paused) {
          waits.push({ index: i, pass });
          return undefined;
        }
        await ctx.journal.record(key, pass);
        return pass;
      });
      // The run pauses at the first item waiting: the finished passes stay journaled; the resume answers it.
      const paused = waits.sort((a, b) => a.index - b.index)[0];
      if (paused) {
        await ctx.journal.record(ITERATION_WAITING_KEY, paused.index);
        const { nodeId, nodeLabel, description } = paused.pass.paused!;
        return {
          input: { iterationInput: list, waitingItem: paused.index },
          output: { content: description },
          pause: { description, at: { nodeId, nodeLabel } },
        };
      }
      const done = passes as IterationPass[];
      const results = done.map((p) => p.content);
      const state: Record<string, unknown> = {};
      for (const p of done) for (const [k, v] of Object.entries(p.state)) if (ctx.state[k] !== v) state[k] = v;
      const content = params.iterationOutputStructure === "jsonArray" ? JSON.stringify(results) : results.join("\n");
      return {
        input: { iterationInput: list },
        output: { content, results },
        ...(Object.keys(state).length ? { state } : {}),
        usedTools: done.flatMap((p) => p.usedTools),
      };
    },
  };
  return step;
};
