import type { BaseChain } from "@langchain/classic/chains";
import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import { AppError } from "@/common/errors";
import { type Json, runInSandbox, sandboxAppError } from "../../sandbox";
import type { BuildContext } from "../../flow/types";
import type { RuntimeOf } from "../define";
import { NO_STREAM_TAG } from "../events";
import { type ChainTurn, childConfig, FlowChain } from "../shared/flow-chain";
import { chainsById, historyText } from "../shared/prompts";
import type { customFunctionDefinition } from "./definition";

const RESERVED = new Set(["input", "flow", "vars"]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const VARIABLE_VALUE = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/;

/**
 * Flowise's chatflow Custom JS Function: the code runs in lib/sandbox each turn, never in this
 * process; a throw or a limit ends the run with the sandbox's 422 naming the node.
 */
export class CustomFunctionChain extends FlowChain {
  constructor(
    private readonly opts: {
      code: string;
      variables: Record<string, unknown>;
      chains: ReadonlyMap<string, BaseChain>;
      subject: string;
      ctx: BuildContext;
    },
  ) {
    super({});
  }

  _chainType() {
    return "switchyard_custom_function";
  }

  private async value(raw: unknown, turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<Json> {
    const name = typeof raw === "string" ? VARIABLE_VALUE.exec(raw)?.[1] : undefined;
    if (name === "question") return turn.question;
    if (name === "chat_history") return historyText(turn);
    const chain = name === undefined ? undefined : this.opts.chains.get(name);
    if (!chain) return JSON.parse(JSON.stringify(raw ?? null)) as Json;
    const out = await chain.invoke(
      { input: turn.question, history: turn.history, ...(turn.signal ? { signal: turn.signal } : {}) },
      childConfig(runManager, turn.signal, [NO_STREAM_TAG]),
    );
    return typeof out.text === "string" ? out.text : JSON.stringify(out.text ?? "");
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const named: Record<string, Json> = {};
    for (const [k, raw] of Object.entries(this.opts.variables)) named[k] = await this.value(raw, turn, runManager);
    const vars = (await this.opts.ctx.vars?.()) ?? {};
    const outcome = await runInSandbox({
      code: this.opts.code,
      variables: {
        ...named,
        input: turn.question,
        vars,
        flow: { chatflowId: this.opts.ctx.chatflowId, input: turn.question },
      },
    });
    if (!outcome.ok) throw sandboxAppError(outcome.error, this.opts.subject);
    return typeof outcome.value === "string" ? outcome.value : JSON.stringify(outcome.value);
  }
}

/** Builds the function's chain; input variable names must be identifiers other than input, flow and vars. */
export const buildCustomFunction: RuntimeOf<typeof customFunctionDefinition> = async ({
  params,
  label,
  nodeId,
  inputs,
  sources,
  ctx,
}) => {
  const raw = params.inputVariables;
  const variables = raw && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  for (const name of Object.keys(variables))
    if (!IDENTIFIER.test(name) || RESERVED.has(name))
      throw new AppError(
        "invalid_graph",
        `${label}: input variable "${name}" must be an identifier other than input, flow and vars.`,
      );
  return new CustomFunctionChain({
    code: params.code,
    variables,
    chains: chainsById(inputs.chains, sources?.chains),
    subject: `Custom JS Function "${label}" (${nodeId})`,
    ctx,
  });
};
