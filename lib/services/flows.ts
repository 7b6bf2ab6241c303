import { buildStoreNodeWith, findStoreForFlow, readStoreChunks } from "./document-store-graph";
import {
  buildFlow,
  FlowCache,
  applyOverrides,
  validateGraph,
  RESERVED_OVERRIDE_KEYS,
  type BuildContext,
  type BuiltFlow,
  type UsesCredential,
} from "../flow";
import { getEnv } from "../env";
import { AppError } from "@/common/errors";
import { createGuardedFetch, createGuardedRequest } from "../security/outbound";
import { createModelFetch, createModelRequest, operatorPolicy } from "../security/outbound-policy";
import { resolveCredentialForOwner } from "./credentials";
import { stableJson } from "../stable-json";
import { documentStore } from "./vector-store-db";
import { variableValues } from "./variables";
import type { Chatflow } from "../db/generated/client";
import { on, processState, stateBus } from "../state";
import type { GraphProblemDetail } from "@/common/schemas/problems";
import { log } from "../log";
import { buildAgentflow, validateAgentflowGraph } from "../agentflow/build";
import { getDefinition } from "../nodes/registry";

/**
 * Built flows by chatflow id + version (see "builtFlows" in lib/state/catalogue.ts): a saved or
 * deleted chatflow, a changed credential or a changed owner drops the builds it makes stale.
 */
export const flowCache = processState("builtFlows", () => {
  const cache = new FlowCache();
  stateBus().subscribe(
    on({
      "chatflow.saved": (e) => cache.invalidate(e.chatflowId),
      "chatflow.deleted": (e) => cache.invalidate(e.chatflowId),
      "credential.updated": (e) => cache.invalidateCredential(e.credentialId),
      "credential.deleted": (e) => cache.invalidateCredential(e.credentialId),
      "user.roleChanged": (e) => cache.invalidateOwner(e.userId),
      "user.deleted": (e) => cache.invalidateOwner(e.userId),
      "state.resync": () => cache.clear(),
    }),
  );
  return cache;
});

/** The host of a URL a node names, or a clear 4xx when it is not one. */
function hostOfNodeUrl(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    throw new AppError("invalid_graph", `"${url}" is not a valid URL.`);
  }
}

/**
 * What node runtimes may use: credentials, env fallbacks and outbound HTTP behind the guard. Every
 * fetch here follows the operator's policy (lib/security/outbound-policy.ts): naming a host in a
 * node, a request or a fetched spec never makes a private address reachable. Only credentials the
 * chatflow's owner may use resolve (a builder: own or shared; no owner: any). `usesCredential` hears
 * of each credential id before it is resolved (the flow cache drops the build when it changes).
 */
export function buildContext(
  chatflowId: string,
  ownerId: string | null,
  usesCredential?: UsesCredential,
): BuildContext {
  const env = getEnv();
  const policy = operatorPolicy();
  return {
    chatflowId,
    resolveCredential: (id) => {
      usesCredential?.(id);
      return resolveCredentialForOwner(id, ownerId);
    },
    env: {
      OPENAI_API_KEY: env.OPENAI_API_KEY,
      OPENAI_BASE_URL: env.OPENAI_BASE_URL,
      OPENAI_MODEL: env.OPENAI_MODEL,
      OPENAI_EMBEDDING_MODEL: env.OPENAI_EMBEDDING_MODEL,
      MODEL_TIMEOUT_MS: env.MODEL_TIMEOUT_MS,
    },
    fetch: createGuardedFetch(policy) as typeof fetch,
    fetchFor: ({ baseUrl, methods }) =>
      createGuardedFetch({
        ...policy,
        allowedHosts: [hostOfNodeUrl(baseUrl)],
        allowedMethods: methods,
      }) as typeof fetch,
    requestFor: ({ baseUrl, methods }) =>
      createGuardedRequest({ ...policy, allowedHosts: [hostOfNodeUrl(baseUrl)], allowedMethods: methods }),
    modelFetch: createModelFetch,
    modelRequest: createModelRequest,
    logger: { warn: (msg, data) => log.warn(data === undefined ? {} : { data }, msg) },
    vars: variableValues,
    documents: documentStore,
    // Built with the store owner's credentials and the store's id as its chunks' key.
    documentStoreRetriever: async (storeId) => {
      const row = await findStoreForFlow(storeId, ownerId);
      return buildStoreNodeWith(row, buildContext(row.id, row.ownerId));
    },
    documentStoreChunks: async (storeId) => readStoreChunks(await findStoreForFlow(storeId, ownerId)),
  };
}

/** Node-input overrides of a request (sessionId and returnSourceDocuments are not node inputs). */
function nodeOverrides(overrideConfig: Record<string, unknown> | undefined) {
  if (!overrideConfig) return undefined;
  const rest = Object.entries(overrideConfig).filter(([k]) => !RESERVED_OVERRIDE_KEYS.includes(k));
  return rest.length ? Object.fromEntries(rest) : undefined;
}

/**
 * The built flow of a chatflow, from the cache when possible. Requests that override node
 * inputs (within the chatflow's allow-list) get their own cached variant.
 */
export async function getBuiltFlow(chatflow: Chatflow, overrideConfig?: Record<string, unknown>): Promise<BuiltFlow> {
  const overrides = nodeOverrides(overrideConfig);
  const key = { chatflowId: chatflow.id, version: chatflow.version, ownerId: chatflow.ownerId };
  const agentflow = chatflow.type === "AGENTFLOW";
  const build = (graph: unknown) => (uses: UsesCredential) =>
    (agentflow ? buildAgentflow : buildFlow)(graph, buildContext(chatflow.id, chatflow.ownerId, uses));
  if (!overrides) return flowCache.get(key, build(chatflow.graph));
  const valid = agentflow ? validateAgentflowGraph(chatflow.graph) : validateGraph(chatflow.graph);
  const graph = applyOverrides(valid, overrides, chatflow.overrideAllowList);
  return flowCache.get({ ...key, variant: stableJson(overrides) }, build(graph));
}

/**
 * Runs the engine's graph checks (a chatflow's, or an agentflow's) and reports problems instead of
 * throwing. Without a type, a graph holding agentflow steps is checked as an agentflow; with the
 * global variables' names, an agentflow's `{{$vars.name}}` must name one.
 */
export function checkGraph(
  graph: unknown,
  type: Chatflow["type"] = holdsAgentflowSteps(graph) ? "AGENTFLOW" : "CHATFLOW",
  opts: { variables?: ReadonlySet<string> } = {},
): { valid: boolean; problems: GraphProblemDetail[] } {
  try {
    if (type === "AGENTFLOW") validateAgentflowGraph(graph, opts);
    else validateGraph(graph);
    return { valid: true, problems: [] };
  } catch (err) {
    const details = (err as { details?: unknown }).details;
    if (!Array.isArray(details)) throw err;
    return { valid: false, problems: details as GraphProblemDetail[] };
  }
}

function holdsAgentflowSteps(graph: unknown): boolean {
  const nodes = (graph as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return false;
  return nodes.some((n) => {
    const type = (n as { type?: unknown } | null)?.type;
    return typeof type === "string" && !!getDefinition(type)?.capabilities?.agentflow;
  });
}
