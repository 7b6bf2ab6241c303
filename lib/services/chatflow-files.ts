import { getEnv } from "../env";
import { removeChatflowFiles, withUploadsLock } from "../security/stored-files";

/**
 * Removes a deleted chatflow's stored files (prediction uploads and upserted documents), under the
 * uploads lock so a prediction finishing at that moment cannot leave a file behind.
 */
export async function removeChatflowUploads(chatflowId: string): Promise<void> {
  await withUploadsLock(chatflowId, () => removeChatflowFiles(getEnv().DATA_DIR, chatflowId));
}
