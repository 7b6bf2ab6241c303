import { policyFor } from "./callers";

// Route policies, each read from the permission table (lib/auth/permissions.ts): routes name the
// action they serve; services then check ownership with the same table.

/** Chatflow management: studio users, admins over Basic, keys with the `chatflows` permission. */
export const manageChatflows = policyFor("chatflow.update");

/** API keys are managed by studio users and admins over Basic, never by other keys. */
export const manageKeys = policyFor("apikey.create");

/** User administration. */
export const adminsOnly = policyFor("user.manage");

/** Running a chatflow: keys with `predict`, studio users, anyone on a public chatflow. */
export const runChatflow = policyFor("chatflow.predict");

/** Vector upsert and the store panel: keys with `upsert`, studio users. */
export const upsertChatflow = policyFor("chatflow.upsert");

/** The Message API: admins (session or Basic) and keys with `messages` whose owner is an admin. */
export const messageAdmins = policyFor("chatmessage.read");

/** Credentials: listed by editors (keys with `chatflows` too), managed by studio users and Basic. */
export const listCredentialsPolicy = policyFor("credential.list");
export const manageCredentials = policyFor("credential.update");

/** Domains: keys with `domains`, studio users, admins over Basic. */
export const domainUsers = policyFor("domain.use");

/** The node registry for the studio. */
export const readNodes = policyFor("node.list");
