import type { ApiKeyPermission } from "../../lib/access/callers";
import { fixtureKeyOwner } from "../../dev/callers";

export { fixtureKeyOwner, systemCaller, userCaller } from "../../dev/callers";

/** A new API key for every chatflow with these permissions, owned by fixtureKeyOwner(): its secret. */
export async function fixtureKey(name: string, permissions: ApiKeyPermission[]): Promise<string> {
  const { createApiKey } = await import("../../lib/services/api-keys");
  return (await createApiKey({ name, permissions, chatflowIds: [] }, await fixtureKeyOwner())).key;
}
