import { paramInputs, type NodeDefinition, type ParamInput } from "./types";

/**
 * Which node params a chatflow's owner may put on its override allow-list. Params that choose where
 * the flow's requests go or what it runs (base URLs, an API's server, a spec, a file, a credential)
 * never are: a caller who could change them per request could send the flow's keys and headers to
 * a server of theirs, or make the server fetch internal addresses. Plain functions over
 * definitions (browser-safe); the registry's list is NEVER_OVERRIDABLE in ./overridable.ts.
 */
const ROUTING_PARAM_NAMES: ReadonlySet<string> = new Set(["baseURL", "serverUrl", "specUrl", "spec", "file"]);

/** True for a param that may never be overridden per request (by its name or its type). */
export function isNeverOverridable(param: Pick<ParamInput, "name" | "type">): boolean {
  return ROUTING_PARAM_NAMES.has(param.name) || param.type === "credential" || param.type === "file";
}

/** Every param name of the given definitions that can never be on an override allow-list. */
export function neverOverridableNames(defs: readonly NodeDefinition[]): string[] {
  const names = new Set<string>(ROUTING_PARAM_NAMES);
  for (const def of defs) for (const p of paramInputs(def)) if (isNeverOverridable(p)) names.add(p.name);
  return [...names].sort();
}
