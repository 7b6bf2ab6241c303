import type { Chatflow } from "../db/generated/client";
import { checkVersionTests } from "./chatflow-tests/gate";

/**
 * The one check point before a version is published (publishVersion in chatflow-versions.ts calls
 * it after the caller's rights and the version's existence were checked, before anything changes).
 * With `requirePassingTests` on, a version whose test cases fail or have not run is refused: 409
 * `conflict` naming them (lib/services/chatflow-tests/gate.ts).
 */
export async function assertPublishable(chatflow: Chatflow, version: number): Promise<void> {
  if (chatflow.requirePassingTests) await checkVersionTests(chatflow.id, version);
}
