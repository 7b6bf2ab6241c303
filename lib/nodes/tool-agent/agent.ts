import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { SystemMessage, ToolMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { Runnable } from "@langchain/core/runnables";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { recordToolStart, recordUsedTool } from "../events";
import { childConfig, FlowChain, type ChainTurn } from "../shared/flow-chain";
import type { ChatHistoryMemory } from "../shared/memory";
import { humanMessage, messageText } from "../shared/messages";
import { traceRequests } from "../../security/request-trace";

export interface ToolAgentOptions {
  model: BaseChatModel;
  tools: StructuredToolInterface[];
  systemMessage: string;
  maxIterations: number;
  memory?: ChatHistoryMemory;
}

/** The answer when the agent runs out of iterations without a final answer. */
export const MAX_ITERATIONS_TEXT = "I could not finish this request within the allowed number of steps.";

/**
 * A tool-calling agent loop (the same protocol as createToolCallingAgent + AgentExecutor, written
 * out so that tokens stream from the model calls, images reach the model and a throwing tool
 * becomes an observation "Tool error: …" the model can explain instead of a crashed run).
 */
export class ToolAgentChain extends FlowChain {
  private readonly toolModel: Runnable<BaseMessage[], AIMessage>;
  private readonly toolsByName: Map<string, StructuredToolInterface>;

  constructor(private readonly opts: ToolAgentOptions) {
    super({});
    this.toolModel = (opts.tools.length > 0 ? opts.model.bindTools!(opts.tools) : opts.model) as unknown as Runnable<
      BaseMessage[],
      AIMessage
    >;
    this.toolsByName = new Map(opts.tools.map((t) => [t.name, t]));
  }

  _chainType() {
    return "switchyard_tool_agent";
  }

  protected async answer(turn: ChainTurn, runManager?: CallbackManagerForChainRun): Promise<string> {
    const messages: BaseMessage[] = [
      ...(this.opts.systemMessage ? [new SystemMessage(this.opts.systemMessage)] : []),
      ...(this.opts.memory ? this.opts.memory.messagesFor(turn.history) : []),
      humanMessage(turn.question, turn.images),
    ];
    let lastText = "";
    for (let i = 0; i < this.opts.maxIterations; i++) {
      const reply = await this.toolModel.invoke(messages, childConfig(runManager, turn.signal));
      messages.push(reply);
      lastText = messageText(reply);
      if (!reply.tool_calls?.length) return lastText;
      for (const call of reply.tool_calls) {
        const { output, direct } = await this.runTool(call, turn.signal, runManager);
        messages.push(new ToolMessage({ content: output, tool_call_id: call.id ?? call.name, name: call.name }));
        if (direct) return output;
      }
    }
    return lastText || MAX_ITERATIONS_TEXT;
  }

  private async runTool(
    call: { name: string; args: Record<string, unknown> },
    signal: AbortSignal | undefined,
    runManager?: CallbackManagerForChainRun,
  ): Promise<{ output: string; direct: boolean }> {
    const tool = this.toolsByName.get(call.name);
    let output = "";
    let failed = false;
    await recordToolStart(runManager, call.name, call.args);
    // The HTTP requests the tool makes are listed with its call (request-trace.ts).
    const { requests } = await traceRequests(async () => {
      try {
        if (!tool)
          throw new Error(
            `there is no tool named "${call.name}"; available: ${[...this.toolsByName.keys()].join(", ")}`,
          );
        const result: unknown = await tool.invoke(call.args, childConfig(runManager, signal));
        output = typeof result === "string" ? result : JSON.stringify(result);
      } catch (e) {
        if (signal?.aborted) throw e;
        failed = true;
        output = `Tool error: ${e instanceof Error ? e.message : String(e)}`;
      }
    });
    await recordUsedTool(runManager, {
      tool: call.name,
      toolInput: call.args,
      toolOutput: output,
      ...(requests.length ? { requests } : {}),
    });
    return { output, direct: !failed && tool?.returnDirect === true };
  }
}
