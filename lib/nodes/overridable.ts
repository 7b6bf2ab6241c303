import { neverOverridableNames } from "@/common/nodes/override-rules";
import { nodeDefinitions } from "./registry";

export { isNeverOverridable, neverOverridableNames } from "@/common/nodes/override-rules";

/** Every param name of the registry that can never be on an override allow-list (server side). */
export const NEVER_OVERRIDABLE: readonly string[] = neverOverridableNames(nodeDefinitions);

/** The entries of an allow-list that are never overridable (empty when the list is acceptable). */
export function forbiddenOverrideNames(allowList: readonly string[]): string[] {
  return [...new Set(allowList.filter((name) => NEVER_OVERRIDABLE.includes(name)))];
}
