import { buildFlow, FlowCache, applyOverrides, validateGraph, RESERVED_OVERRIDE_KEYS, type BuildContext, type BuiltFlow } from "../flow";
import { getEnv } from "../env";
import { AppError } from "../errors";
import { createGuardedFetch } from "../security/outbound";
import { createModelFetch, operatorPolicy } from "../security/outbound-policy";
import { resolveCredentialForOwner } from "./credentials";
import { stableJson } from "../stable-json";
import { documentStore } from "./vector-store-db";
import type { Chatflow } from "../db/generated/client";

const holder = globalThis as unknown as { __switchyardFlows?: FlowCache };
/** Built flows by chatflow id + version: a save bumps the version, so the next run rebuilds. */
export const flowCache = (holder.__switchyardFlows ??= new FlowCache());

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
 * chatflow's owner may use resolve (a builder: own or shared; no owner: any).
 */
export function buildContext(chatflowId: string, ownerId: string | null): BuildContext {
  const env = getEnv();
  const policy = operatorPolicy();
  return {
    chatflowId,
    resolveCredential: (id) => resolveCredentialForOwner(id, ownerId),
    env: {
      OPENAI_API_KEY: env.OPENAI_API_KEY, OPENAI_BASE_URL: env.OPENAI_BASE_URL, OPENAI_MODEL: env.OPENAI_MODEL,
      OPENAI_EMBEDDING_MODEL: env.OPENAI_EMBEDDING_MODEL, MODEL_TIMEOUT_MS: env.MODEL_TIMEOUT_MS,
    },
    fetch: createGuardedFetch(policy) as typeof fetch,
    fetchFor: ({ baseUrl, methods }) =>
      createGuardedFetch({ ...policy, allowedHosts: [hostOfNodeUrl(baseUrl)], allowedMethods: methods }) as typeof fetch,
    modelFetch: createModelFetch,
    logger: { warn: (msg, data) => console.warn(`[switchyard] ${msg}`, data ?? "") },
    documents: documentStore,
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
  const key = { chatflowId: chatflow.id, version: chatflow.version };
  if (!overrides) return flowCache.get(key, () => buildFlow(chatflow.graph, buildContext(chatflow.id, chatflow.ownerId)));
  const graph = applyOverrides(validateGraph(chatflow.graph), overrides, chatflow.overrideAllowList);
  return flowCache.get({ ...key, variant: stableJson(overrides) }, () => buildFlow(graph, buildContext(chatflow.id, chatflow.ownerId)));
}

/** Runs the engine's graph checks and reports problems instead of throwing. */
export function checkGraph(graph: unknown): { valid: boolean; problems: { nodeId?: string; input?: string; message: string }[] } {
  try {
    validateGraph(graph);
    return { valid: true, problems: [] };
  } catch (err) {
    const details = (err as { details?: unknown }).details;
    if (!Array.isArray(details)) throw err;
    return { valid: false, problems: details as { nodeId?: string; input?: string; message: string }[] };
  }
}
