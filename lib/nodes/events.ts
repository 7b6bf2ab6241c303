import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { SourceDocument, UsedTool } from "../flow/types";

/** Custom callback event a chain or agent emits for each tool/API call it makes (fills usedTools). */
export const USED_TOOL_EVENT = "switchyard_used_tool";

/** Tag on model calls whose tokens must not be streamed to the user (e.g. a tool-choice step). */
export const NO_STREAM_TAG = "switchyard:nostream";

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
