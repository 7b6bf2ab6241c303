import type { NodeDefinition } from "./types";

/**
 * A set of node definitions to look types up in, without runtimes: the studio builds one from the
 * definitions the server sends (the editor page's props), the server from its registry.
 */

/** Finds the definition of a node type by its stable name. */
export type DefinitionLookup = (type: string) => NodeDefinition | undefined;

export interface NodeCatalog {
  readonly definitions: readonly NodeDefinition[];
  readonly get: DefinitionLookup;
}

/** A catalog over the given definitions (names are unique; the first of a name wins). */
export function nodeCatalog(definitions: readonly NodeDefinition[]): NodeCatalog {
  const byName = new Map<string, NodeDefinition>();
  for (const def of definitions) if (!byName.has(def.name)) byName.set(def.name, def);
  return { definitions, get: (type) => byName.get(type) };
}
