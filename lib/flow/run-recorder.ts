import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { NO_STREAM_TAG, SOURCE_DOCUMENTS_EVENT, TOOL_START_EVENT, USED_TOOL_EVENT } from "../nodes/events";
import { configuredModel, promptChars, UsageTally } from "../usage/tally";
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
  /** Tokens of the run's model calls, per model (calls inside tools too: the flow pays for them). */
  readonly usage = new UsageTally();
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
    messages: BaseMessage[][],
    runId: string,
    parentRunId?: string,
    extraParams?: unknown,
    tags?: string[],
    metadata?: unknown,
  ) {
    this.parents.set(runId, parentRunId);
    this.usage.start(runId, configuredModel(extraParams, metadata), promptChars(messages));
    if (tags?.includes(NO_STREAM_TAG)) this.silentRuns.add(runId);
  }

  async handleLLMStart(
    _l: Serialized,
    prompts: string[],
    runId: string,
    parentRunId?: string,
    extraParams?: unknown,
    tags?: string[],
    metadata?: unknown,
  ) {
    this.parents.set(runId, parentRunId);
    this.usage.start(runId, configuredModel(extraParams, metadata), promptChars(prompts));
    if (tags?.includes(NO_STREAM_TAG)) this.silentRuns.add(runId);
  }

  async handleLLMNewToken(token: string, _idx: unknown, runId: string) {
    if (!token || !this.onToken || this.silentRuns.has(runId) || this.insideTool(runId)) return;
    this.tokenCount += 1;
    this.onToken(token);
  }

  async handleLLMEnd(output: LLMResult, runId: string) {
    this.usage.end(runId, output);
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
