import type { Role } from "@/lib/db/generated/enums";

/** API-key permissions; a key holds one or more. */
export const API_KEY_PERMISSIONS = ["predict", "upsert", "chatflows", "messages", "domains"] as const;
export type ApiKeyPermission = (typeof API_KEY_PERMISSIONS)[number];

export type UserCaller = {
  kind: "user";
  via: "session" | "basic";
  user: { id: string; email: string; name: string; role: Role };
};
export type ApiKeyCaller = {
  kind: "apiKey";
  key: {
    id: string;
    prefix: string;
    /** Effective permissions: the key's own, cut to what its owner's current role allows. */
    permissions: string[];
    allChatflows: boolean;
    chatflowIds: string[];
    /** The user who owns the key (null only for fixtures acting as the system) and their current role. */
    ownerId: string | null;
    ownerRole: Role;
  };
};
export type AnonymousCaller = { kind: "anonymous" };
/** Who is calling, resolved by the HTTP layer's authenticate(); services decide with common/access/permissions.ts. */
export type Caller = UserCaller | ApiKeyCaller | AnonymousCaller;
