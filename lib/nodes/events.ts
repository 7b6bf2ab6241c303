import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { SourceDocument, ToolStart, UsedTool } from "../flow/types";

/** Custom callback event a chain or agent emits for each tool/API call it makes (fills usedTools). */
export const USED_TOOL_EVENT = "switchyard_used_tool";

/** Tag on model calls whose tokens must not be streamed to the user (e.g. a tool-choice step). */
export const NO_STREAM_TAG = "switchyard:nostream";

/** Custom callback event a chain or agent emits when a tool/API call begins (the `toolStart` stream event). */
export const TOOL_START_EVENT = "switchyard_tool_start";

/**
 * Reports that a tool call begins, before it runs; every call reported here is reported again by
 * recordUsedTool when it ends (the same calls, in the same order, for the same listeners).
 */
export async function recordToolStart(
  runManager: CallbackManagerForChainRun | undefined,
  tool: string,
  input: unknown,
): Promise<void> {
  const start: ToolStart = { tool, input, runId: crypto.randomUUID() };
  await runManager?.handleCustomEvent(TOOL_START_EVENT, start);
}

/** Reports one tool call of a run to the flow's run recorder. */
export async function recordUsedTool(
  runManager: CallbackManagerForChainRun | undefined,
  used: UsedTool,
): Promise<void> {
  await runManager?.handleCustomEvent(USED_TOOL_EVENT, used);
}

/** Custom callback event a retrieval chain or tool emits with the chunks it used (fills sourceDocuments). */
export const SOURCE_DOCUMENTS_EVENT = "switchyard_source_documents";

/** Reports the documents a retrieval step used to the flow's run recorder. */
export async function recordSourceDocuments(
  runManager: CallbackManagerForChainRun | undefined,
  docs: SourceDocument[],
): Promise<void> {
  await runManager?.handleCustomEvent(SOURCE_DOCUMENTS_EVENT, docs);
}
