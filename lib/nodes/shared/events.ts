import type { CallbackManagerForChainRun } from "@langchain/core/callbacks/manager";
import type { UsedTool } from "../../flow/types";

/** Custom callback event a chain or agent emits for each tool/API call it makes (fills usedTools). */
export const USED_TOOL_EVENT = "switchyard_used_tool";

/** Tag on model calls whose tokens must not be streamed to the user (e.g. a tool-choice step). */
export const NO_STREAM_TAG = "switchyard:nostream";

/** Reports one tool call of a run to the flow's run recorder. */
export async function recordUsedTool(runManager: CallbackManagerForChainRun | undefined, used: UsedTool): Promise<void> {
  await runManager?.handleCustomEvent(USED_TOOL_EVENT, used);
}
