import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { NO_STREAM_TAG, SOURCE_DOCUMENTS_EVENT, TOOL_START_EVENT, USED_TOOL_EVENT } from "../nodes/events";
import type { SourceDocument, ToolStart, UsedTool } from "./types";

/**
 * The callback handler of one run. It streams answer tokens to `onToken`, tells `onToolStart` when
 * a tool call of the ending chain or agent begins, and collects the tool calls it reports. With an
 * `onToken` (a streamed answer) it asks models to stream (`lc_prefer_streaming`). Without one (a
 * JSON answer) models answer in one piece: no SSE parsing, no token callbacks (measured in
 * bench/ab.ts; see the commit that made it so).
 *
 * Tokens and tool reports from inside a tool (e.g. the OpenAPI chain under a Chain Tool) are not the
 * user's answer, so they are skipped: each run's parent is remembered to tell.
 */
export class RunRecorder extends BaseCallbackHandler {
  name = "switchyard_run_recorder";
  readonly lc_prefer_streaming: boolean;
  awaitHandlers = true;
  readonly usedTools: UsedTool[] = [];
  /** Documents retrieval steps used, also from inside tools (a Retriever Tool's chunks count). */
  readonly sourceDocuments: SourceDocument[] = [];
  tokenCount = 0;
  /** Tokens the run's model calls reported (calls inside tools too: the flow pays for them). */
  readonly usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
  private readonly parents = new Map<string, string | undefined>();
  private readonly toolRuns = new Set<string>();
  private readonly silentRuns = new Set<string>();

  constructor(
    private readonly onToken?: (token: string) => void,
    private readonly onToolStart?: (start: ToolStart) => void,
  ) {
    super();
    this.lc_prefer_streaming = !!onToken;
  }

  private insideTool(runId: string | undefined): boolean {
    for (let id = runId; id; id = this.parents.get(id)) if (this.toolRuns.has(id)) return true;
    return false;
  }

  // The callback manager passes the parent run id 4th (the declared signature names it runType).
  async handleChainStart(_c: Serialized, _i: Record<string, unknown>, runId: string, parentRunId?: string) {
    this.parents.set(runId, parentRunId);
  }

  async handleToolStart(_t: Serialized, _i: string, runId: string, parentRunId?: string) {
    this.parents.set(runId, parentRunId);
    this.toolRuns.add(runId);
  }

  async handleChatModelStart(
    _l: Serialized,
    _m: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    _e?: unknown,
    tags?: string[],
  ) {
    this.parents.set(runId, parentRunId);
    if (tags?.includes(NO_STREAM_TAG)) this.silentRuns.add(runId);
  }

  async handleLLMStart(
    _l: Serialized,
    _p: string[],
    runId: string,
    parentRunId?: string,
    _e?: unknown,
    tags?: string[],
  ) {
    this.parents.set(runId, parentRunId);
    if (tags?.includes(NO_STREAM_TAG)) this.silentRuns.add(runId);
  }

  async handleLLMNewToken(token: string, _idx: unknown, runId: string) {
    if (!token || !this.onToken || this.silentRuns.has(runId) || this.insideTool(runId)) return;
    this.tokenCount += 1;
    this.onToken(token);
  }

  async handleLLMEnd(output: LLMResult) {
    // A chat model's message carries usage_metadata; older paths report llmOutput.tokenUsage.
    const message = (output.generations?.[0]?.[0] as { message?: { usage_metadata?: TokenUsage } } | undefined)
      ?.message;
    const meta = message?.usage_metadata;
    const legacy = output.llmOutput?.tokenUsage as { promptTokens?: number; completionTokens?: number } | undefined;
    const prompt = meta?.input_tokens ?? legacy?.promptTokens;
    const completion = meta?.output_tokens ?? legacy?.completionTokens;
    if (prompt === undefined && completion === undefined) return;
    this.usage.promptTokens += prompt ?? 0;
    this.usage.completionTokens += completion ?? 0;
    this.usage.calls += 1;
  }

  async handleCustomEvent(eventName: string, data: unknown, runId: string) {
    if (eventName === SOURCE_DOCUMENTS_EVENT) {
      for (const doc of data as SourceDocument[]) {
        if (
          !this.sourceDocuments.some(
            (d) => d.pageContent === doc.pageContent && d.metadata.source === doc.metadata.source,
          )
        )
          this.sourceDocuments.push(doc);
      }
      return;
    }
    // Starts are filtered like usedTools: nobody sees a start of a call usedTools will not report.
    if (eventName === TOOL_START_EVENT) {
      if (!this.insideTool(runId)) this.onToolStart?.(data as ToolStart);
      return;
    }
    if (eventName !== USED_TOOL_EVENT || this.insideTool(runId)) return;
    this.usedTools.push(data as UsedTool);
  }
}

type TokenUsage = { input_tokens?: number; output_tokens?: number };
