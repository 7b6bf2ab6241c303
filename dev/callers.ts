/**
 * Callers for setting up fixtures through the services, in tests and the bench: the system caller,
 * a signed-in user as a caller, and an admin to own the API keys fixtures mint.
 */
import type { ApiKeyPermission, Caller } from "@/common/access/callers";

/**
 * A caller allowed everywhere, for setting up fixtures through the services: a key with every
 * permission whose "owner" is the system (null: what it creates is unowned, managed by admins).
 */
export const systemCaller: Caller = {
  kind: "apiKey",
  key: {
    id: "fixture",
    prefix: "sy_fixture",
    permissions: ["chatflows", "predict", "upsert", "messages", "domains"],
    allChatflows: true,
    chatflowIds: [],
    ownerId: null,
    ownerRole: "admin",
  },
};

/** A signed-in studio user as a caller, for services called directly (keys need a real owner). */
export function userCaller(user: { id: string; email: string; name: string; role: "admin" | "builder" }): Caller {
  return { kind: "user", via: "session", user: { id: user.id, email: user.email, name: user.name, role: user.role } };
}

/**
 * An admin to own keys minted by fixtures (a key needs a real owner): the oldest admin, or a
 * fixture admin created for the purpose (through lib/db's user queries) when the database has none.
 */
export async function fixtureKeyOwner(): Promise<Caller> {
  const { insertUser, listUsers } = await import("../lib/db/queries/users");
  const admin =
    (await listUsers()).items.find((u) => u.role === "admin") ??
    (await insertUser({
      email: "fixture-admin@example.invalid",
      name: "Fixture admin",
      passwordHash: "unusable",
      role: "admin",
    }));
  return userCaller(admin);
}

/** A new API key for every chatflow with these permissions, owned by fixtureKeyOwner(): its secret. */
export async function fixtureKey(name: string, permissions: ApiKeyPermission[]): Promise<string> {
  const { createApiKey } = await import("../lib/services/api-keys");
  return (await createApiKey({ name, permissions, chatflowIds: [] }, await fixtureKeyOwner())).key;
}
