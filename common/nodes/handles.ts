import type { NodeDefinition } from "./types";

/**
 * Handle ids and the connection check, shared by the canvas (isValidConnection) and the server
 * (graph validation). A handle id is `<nodeId>:<in|out>:<input or output name>`; node ids never
 * contain ":" (see common/schemas/graph.ts) and names are identifiers, so it parses back unambiguously.
 */

export type HandleDirection = "in" | "out";

/** The id of a node's input ("in") or output ("out") handle. */
export function handleId(nodeId: string, inputOrOutputName: string, direction: HandleDirection): string {
  return `${nodeId}:${direction}:${inputOrOutputName}`;
}

/** Splits a handle id made by `handleId`; undefined when it is not one. */
export function parseHandleId(id: string): { nodeId: string; direction: HandleDirection; name: string } | undefined {
  const m = /^([^:]+):(in|out):([A-Za-z][A-Za-z0-9_]*)$/.exec(id);
  if (!m) return undefined;
  return { nodeId: m[1], direction: m[2] as HandleDirection, name: m[3] };
}

/**
 * Whether output `outputName` of a `sourceDef` node may feed anchor `inputName` of a `targetDef`
 * node: the output's types and the anchor's accepted types must intersect.
 */
export function canConnect(
  sourceDef: NodeDefinition,
  outputName: string,
  targetDef: NodeDefinition,
  inputName: string,
): boolean {
  const output = sourceDef.outputs.find((o) => o.name === outputName);
  const input = targetDef.inputs.find((i) => i.name === inputName);
  if (!output || !input || input.kind !== "anchor") return false;
  return output.types.some((t) => input.accepts.includes(t));
}
