import type { Chatflow } from "../db/generated/client";

/**
 * The one check point before a version is published (publishVersion in chatflow-versions.ts calls
 * it after the caller's rights and the version's existence were checked, before anything changes).
 * Throw an AppError to refuse, e.g. 409 `conflict` naming the failing test cases when the chatflow
 * has `requirePassingTests` on. Until the tests feature fills it in, every version may be published.
 */
export async function assertPublishable(chatflow: Chatflow, version: number): Promise<void> {
  void chatflow;
  void version;
}
