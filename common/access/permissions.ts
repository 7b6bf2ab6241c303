import { AppError } from "../errors";
import type { Role } from "@/lib/db/generated/enums";
import { API_KEY_PERMISSIONS, type ApiKeyPermission, type Caller } from "./callers";

/**
 * Who may do what: ONE table. Route policies (below, checked by the HTTP layer's authenticate()),
 * the services' ownership checks, the studio (what it shows each role) and
 * tests/security/permissions-matrix.test.ts are all read from it, so a change here changes every
 * one of them.
 *
 * - `roles`: what a user of each role may do — on any object, only on their own, or nothing.
 * - `apiKey`: the permission a key needs. A key acts for its owner: it also needs the owner's
 *   current role to allow the action, and "own" means objects its owner owns (and in its scope).
 * - `basic`: admins may call it over HTTP Basic (Basic is for admins only).
 * - `anonymous`: callers without credentials reach the service, which decides (public chatflows).
 */
export type Grant = "any" | "own" | "none";
export type Rule = { roles: Record<Role, Grant>; apiKey?: ApiKeyPermission; basic?: boolean; anonymous?: boolean };

const adminOnly = { admin: "any", builder: "none" } as const;
const ownForBuilders = { admin: "any", builder: "own" } as const;
const everyone = { admin: "any", builder: "any" } as const;

export const PERMISSIONS = {
  "chatflow.list": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "chatflow.read": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "chatflow.create": { roles: everyone, apiKey: "chatflows", basic: true },
  "chatflow.update": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "chatflow.delete": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "chatflow.transfer": { roles: adminOnly, basic: true },
  /** List, read and diff a chatflow's saved versions. */
  "chatflow.versions": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /** Choose the version the API, upsert, widget and public pages run (restoring one is an update). */
  "chatflow.publish": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /**
   * Run a chosen version (`?version=N` on a prediction; the studio's test chat runs the draft this
   * way): the chatflow's managers with a studio session, admins over Basic, keys with `chatflows`
   * (a key also needs `predict` to call the prediction route at all). Never anonymous callers.
   */
  "chatflow.runVersion": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /**
   * Run a chatflow (prediction, streaming and uploads checks, widget config, domain analysis) and
   * what a chat visitor does beside it: rate an answer (POST/PUT /feedback), leave contact details
   * (POST /leads), see the files of their chat (GET /get-upload-file). Public flows: anyone.
   */
  "chatflow.predict": { roles: ownForBuilders, apiKey: "predict", basic: true, anonymous: true },
  /**
   * The OpenAI-compatible API (`/api/v1/openai`: models, chat completions, responses): the flows the
   * caller manages, as models. Never anonymous; another owner's public flow is run through the
   * prediction API instead.
   */
  "chatflow.openai": { roles: ownForBuilders, apiKey: "predict", basic: true },
  /**
   * A chatflow's MCP server (`/api/v1/mcp-server/{id}`: read, enable with a new token, edit, rotate the
   * token, disable): whoever manages the chatflow. MCP clients then call `/api/v1/mcp/{id}` with that
   * flow's own token, which this table does not govern (the token is the flow's, not a caller's).
   */
  "chatflow.mcpServer": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /**
   * A chatflow's test cases and test runs (list, add, edit, delete, run against a version, read the
   * results): whoever manages the chatflow. A run answers with the chatflow's own credentials and is
   * never stored as a conversation, so it needs no `predict`.
   */
  "chatflow.test": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /** Vector upsert and the store panel (counts, clearing a store). */
  "chatflow.upsert": { roles: ownForBuilders, apiKey: "upsert" },
  /** The Message API: conversations, with their feedback and leads (GET /feedback, /leads), are read and deleted by admins only. */
  "chatmessage.read": { roles: adminOnly, apiKey: "messages", basic: true },
  "chatmessage.delete": { roles: adminOnly, apiKey: "messages", basic: true },
  /** Builders also list credentials an admin shared with all builders (usable, not editable). */
  "credential.list": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "credential.create": { roles: everyone, basic: true },
  "credential.update": { roles: ownForBuilders, basic: true },
  "credential.delete": { roles: ownForBuilders, basic: true },
  /** Pick a credential on a node when saving a graph: own ones, or shared with all builders. */
  "credential.use": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "credential.share": { roles: adminOnly, basic: true },
  "credential.transfer": { roles: adminOnly, basic: true },
  "apikey.list": { roles: ownForBuilders, basic: true },
  "apikey.create": { roles: ownForBuilders, basic: true },
  "apikey.revoke": { roles: ownForBuilders, basic: true },
  "user.manage": { roles: adminOnly, basic: true },
  "domain.use": { roles: everyone, apiKey: "domains", basic: true },
  "node.list": { roles: everyone, apiKey: "chatflows", basic: true },
  /**
   * Global variables (`{{$vars.name}}`): read by whoever builds flows (names to reference; runtime
   * variables' values are never sent), managed by admins.
   */
  "variable.list": { roles: everyone, apiKey: "chatflows", basic: true },
  "variable.manage": { roles: adminOnly, basic: true },
  /**
   * Agentflow runs (the Executions API): node-by-node inputs and outputs are the flow's internals, so
   * whoever manages the flow (keys with `chatflows`, within their scope), not whoever may run it.
   */
  "execution.read": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "execution.delete": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /**
   * Usage and cost (GET /api/v1/usage) of the flows the caller may read, and the model prices that
   * cost is computed with (GET /api/v1/usage/prices).
   */
  "usage.read": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /** Edit the model price table (PUT /api/v1/usage/prices): admins only, no API key. */
  "usage.prices": { roles: adminOnly, basic: true },
  /**
   * A flow's webhook settings (turn on, input, make or drop the signing secret): whoever manages the
   * flow. Calling a webhook needs no account: it is public, refused when off, and signed when a secret is set.
   */
  "chatflow.webhook": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /** A flow's schedules (list, add, edit, turn on and off, delete, read their runs): whoever manages the flow. */
  "chatflow.schedule": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  /**
   * Document stores (Flowise's Document Stores): named, owned collections of chunks a flow reads
   * through the Document Store Retriever node. Managed like chatflows; loading and upserting their
   * chunks needs `upsert` on a key, as a chatflow's vector upsert does.
   */
  "documentStore.list": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "documentStore.read": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "documentStore.create": { roles: everyone, apiKey: "chatflows", basic: true },
  "documentStore.update": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "documentStore.delete": { roles: ownForBuilders, apiKey: "chatflows", basic: true },
  "documentStore.upsert": { roles: ownForBuilders, apiKey: "upsert", basic: true },
  /** The admin queue view (queue depth, active jobs, workers): admins only, no API key. */
  "queue.view": { roles: adminOnly, basic: true },
} as const satisfies Record<string, Rule>;

export type Action = keyof typeof PERMISSIONS;
export const ACTIONS = Object.keys(PERMISSIONS) as Action[];

export const rule = (action: Action): Rule => PERMISSIONS[action];

const keyPermissionsByRole = new Map<Role, ApiKeyPermission[]>();

/**
 * The key permissions a role may hold: those needed by an action the role may do. Worked out once
 * per role (the table is constant): every API-key request asks (authenticate() of the HTTP
 * layer). The array is shared, so callers must not change it.
 */
export function keyPermissionsForRole(role: Role): ApiKeyPermission[] {
  let permissions = keyPermissionsByRole.get(role);
  if (!permissions) {
    permissions = API_KEY_PERMISSIONS.filter((p) =>
      ACTIONS.some((a) => rule(a).apiKey === p && rule(a).roles[role] !== "none"),
    );
    keyPermissionsByRole.set(role, permissions);
  }
  return permissions;
}

/** The user a caller acts for: the signed-in user, or the owner of the key. */
export function actingUserId(caller: Caller): string | null {
  if (caller.kind === "user") return caller.user.id;
  return caller.kind === "apiKey" ? caller.key.ownerId : null;
}

/** The role a caller acts with (a key: its owner's current role). */
export function actingRole(caller: Caller): Role | null {
  if (caller.kind === "user") return caller.user.role;
  return caller.kind === "apiKey" ? caller.key.ownerRole : null;
}

/** How far a caller may do an action, before looking at any object. */
export function grantFor(caller: Caller, action: Action): Grant {
  const r = rule(action);
  if (caller.kind === "anonymous") return "none";
  if (caller.kind === "user") return caller.via === "basic" && !r.basic ? "none" : r.roles[caller.user.role];
  if (!r.apiKey || !caller.key.permissions.includes(r.apiKey)) return "none";
  return r.roles[caller.key.ownerRole];
}

/** Whether the caller may do `action` on an object owned by `ownerId` (null: unowned, admins only). */
export function mayAct(caller: Caller, action: Action, ownerId: string | null): boolean {
  const grant = grantFor(caller, action);
  if (grant === "any") return true;
  return grant === "own" && ownerId !== null && ownerId === actingUserId(caller);
}

/** For list queries: undefined (every owner) or the one owner whose objects the caller may see. */
export function ownerFilter(caller: Caller, action: Action): string | undefined {
  const grant = grantFor(caller, action);
  if (grant === "any") return undefined;
  // "none" should have been refused by the route policy; an impossible id keeps the list empty.
  return (grant === "own" && actingUserId(caller)) || "00000000-0000-0000-0000-000000000000";
}

/** The chatflow ids an API key is limited to, or undefined for all. */
export function chatflowScope(caller: Caller): string[] | undefined {
  return caller.kind === "apiKey" && !caller.key.allChatflows ? caller.key.chatflowIds : undefined;
}

/** Throws 403 unless the caller may use this chatflow (keys can be scoped to chosen chatflows). */
export function assertChatflowInScope(caller: Caller, chatflowId: string): void {
  const scope = chatflowScope(caller);
  if (scope && !scope.includes(chatflowId)) {
    throw new AppError("forbidden", "This API key is not allowed to use this chatflow.");
  }
}

/** Throws 403 when the caller may not do `action` at all (e.g. a builder transferring ownership). */
export function assertMay(caller: Caller, action: Action, what: string): void {
  if (grantFor(caller, action) === "none") throw new AppError("forbidden", `You may not ${what}.`);
}

/** Whether a role may do an action at all (the studio hides what it may not). */
export function roleMay(role: Role, action: Action): boolean {
  return rule(action).roles[role] !== "none";
}

/** Who may call a route. Basic auth is always limited to admin users. */
export type AuthPolicy = {
  /** Signed-in studio users (any role unless `adminOnly`). */
  session?: boolean;
  /** HTTP Basic with an admin's email and password. */
  basicAdmin?: boolean;
  /** API keys holding this permission. */
  apiKey?: ApiKeyPermission;
  /** Only admins among users (and keys whose owner is an admin). */
  adminOnly?: boolean;
  /** No credentials needed (the handler decides, e.g. public chatflows). */
  anonymous?: boolean;
};

/** A route's policy, read from the table above. */
export function policyFor(action: Action): AuthPolicy {
  const r = rule(action);
  return {
    session: r.roles.admin !== "none" || r.roles.builder !== "none",
    basicAdmin: r.basic === true && r.roles.admin !== "none",
    apiKey: r.apiKey,
    adminOnly: r.roles.builder === "none",
    anonymous: r.anonymous === true,
  };
}

// Route policies, each read from the table: routes name the action they serve; services then
// check ownership with the same table.

/** Chatflow management: studio users, admins over Basic, keys with the `chatflows` permission. */
export const manageChatflows = policyFor("chatflow.update");
/** Versions of a chatflow: list, read, diff. */
export const readChatflowVersions = policyFor("chatflow.versions");
/** Publishing a version of a chatflow. */
export const publishChatflow = policyFor("chatflow.publish");
/** Importing a Flowise chatflow creates one: who may create chatflows. */
export const importChatflows = policyFor("chatflow.create");
/** API keys are managed by studio users and admins over Basic, never by other keys. */
export const manageKeys = policyFor("apikey.create");
/** User administration. */
export const adminsOnly = policyFor("user.manage");
/** Test cases and runs of a chatflow: its managers (studio users, admins over Basic, keys with `chatflows`). */
export const testChatflows = policyFor("chatflow.test");
/** Running a chatflow: keys with `predict`, studio users, anyone on a public chatflow. */
export const runChatflow = policyFor("chatflow.predict");
/** The OpenAI-compatible API: keys with `predict`, studio users, admins over Basic. */
export const openAICallers = policyFor("chatflow.openai");
/** A chatflow's MCP server settings and token: its managers (studio users, admins over Basic, keys with `chatflows`). */
export const manageMcpServers = policyFor("chatflow.mcpServer");
/** Vector upsert and the store panel: keys with `upsert`, studio users. */
export const upsertChatflow = policyFor("chatflow.upsert");
/** The Message API: admins (session or Basic) and keys with `messages` whose owner is an admin. */
export const messageAdmins = policyFor("chatmessage.read");
/** Credentials: listed by editors (keys with `chatflows` too), managed by studio users and Basic. */
export const listCredentialsPolicy = policyFor("credential.list");
export const manageCredentials = policyFor("credential.update");
/** Domains: keys with `domains`, studio users, admins over Basic. */
export const domainUsers = policyFor("domain.use");
/** The admin queue view. */
export const queueViewers = policyFor("queue.view");
/** Global variables: listed by builders (and keys with `chatflows`), managed by admins. */
export const listVariablesPolicy = policyFor("variable.list");
export const manageVariables = policyFor("variable.manage");
/** Agentflow runs: read (list, one) and deleted by the flow's managers. */
export const readExecutionsPolicy = policyFor("execution.read");
export const deleteExecutionsPolicy = policyFor("execution.delete");
/** Usage and cost of the caller's flows, and the prices in force. */
export const readUsagePolicy = policyFor("usage.read");
/** The model price table: edited by admins. */
export const manageModelPrices = policyFor("usage.prices");
/** A flow's webhook settings and its schedules: the flow's managers. */
export const manageWebhooksPolicy = policyFor("chatflow.webhook");
export const manageSchedulesPolicy = policyFor("chatflow.schedule");
/** The node registry for the studio. */
export const readNodes = policyFor("node.list");
/** Document stores: list, read, query (keys with `chatflows`). */
export const readDocumentStores = policyFor("documentStore.read");
/** Document stores: create, edit, delete. */
export const manageDocumentStores = policyFor("documentStore.update");
/** Document stores: preview, upsert, refresh (keys with `upsert`). */
export const upsertDocumentStores = policyFor("documentStore.upsert");
