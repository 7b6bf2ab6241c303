import type { NodeDefinition, StoreKind } from "./types";

/**
 * Questions about a node answered from its definition's declared capabilities, never from its
 * name or category. Plain functions over data: used by the server and the browser alike.
 */

/** Whether a placed node takes uploaded images: it declares `acceptsImages` and its toggle param is on. */
export function takesImages(def: NodeDefinition, inputs: Record<string, unknown> | undefined): boolean {
  const toggle = def.capabilities?.acceptsImages?.toggle;
  return toggle !== undefined && [true, "true"].includes(inputs?.[toggle] as never);
}

/** The kind of store a node is (the upsert API writes to it), or undefined. */
export function storeKindOf(def: NodeDefinition): StoreKind | undefined {
  return def.capabilities?.store;
}

/** Whether a node is a memory (its label is recorded as the messages' memoryType). */
export function isMemory(def: NodeDefinition): boolean {
  return def.capabilities?.memory === true;
}
