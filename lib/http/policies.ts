import type { AuthPolicy } from "./callers";

/** Chatflow management: studio users, admins over Basic, keys with the `chatflows` permission. */
export const manageChatflows: AuthPolicy = { session: true, basicAdmin: true, apiKey: "chatflows" };

/** API keys are managed by studio users and admins over Basic, never by other keys. */
export const manageKeys: AuthPolicy = { session: true, basicAdmin: true };

/** User administration. */
export const adminsOnly: AuthPolicy = { session: true, basicAdmin: true, adminOnly: true };
