import { AppError } from "../../errors";
import type { Chatflow } from "../../db/generated/client";
import { getChatflowForRun } from "../chatflows";

/**
 * The chatflow as one of its versions: what a test run runs. Until versions exist (issue 16's
 * other half) only the latest (the draft) can be tested.
 */
export async function chatflowAtVersion(chatflowId: string, version: number): Promise<Chatflow> {
  const chatflow = await getChatflowForRun(chatflowId);
  if (version !== chatflow.version)
    throw new AppError("not_found", `Version ${version} of chatflow ${chatflowId} not found.`);
  return chatflow;
}
