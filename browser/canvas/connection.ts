import { stepOutputs } from "@/common/agentflow/graph";
import { parseHandleId } from "@/common/nodes/handles";
import type { DefinitionLookup } from "@/common/nodes/catalog";
import type { ConnectionLike, EditorEdge, EditorNode } from "./types";

/**
 * The editor's connection rule, the same the server's graph validation applies: types must fit
 * (canConnect), a non-list input takes one edge, no duplicates and no cycles. Returns why a
 * connection is refused, or null when it may be made.
 */
export function connectionProblem(
  c: ConnectionLike,
  nodes: EditorNode[],
  edges: EditorEdge[],
  getDefinition: DefinitionLookup,
): string | null {
  const source = nodes.find((n) => n.id === c.source);
  const target = nodes.find((n) => n.id === c.target);
  const out = c.sourceHandle ? parseHandleId(c.sourceHandle) : undefined;
  const inp = c.targetHandle ? parseHandleId(c.targetHandle) : undefined;
  if (!source || !target || !out || !inp || out.direction !== "out" || inp.direction !== "in") {
    return "Connect an output (right side) to an input (left side).";
  }
  if (source.id === target.id) return "A node cannot be connected to itself.";
  const sDef = getDefinition(source.data.defName);
  const tDef = getDefinition(target.data.defName);
  // A Condition's outputs follow its conditions (stepOutputs): one per branch, then Else.
  const output = sDef && stepOutputs(sDef, source.data.inputs).find((o) => o.name === out.name);
  const input = tDef?.inputs.find((i) => i.name === inp.name);
  if (!sDef || !tDef || !output || !input || input.kind !== "anchor") return "Unknown node type or handle.";
  const sName = source.data.label || sDef.label;
  const tName = target.data.label || tDef.label;
  if (!output.types.some((t) => input.accepts.includes(t))) {
    return `${tName} › ${input.label} accepts ${input.accepts.join(" or ")}, but ${sName} provides ${output.types.join(", ")}.`;
  }
  const into = edges.filter((e) => e.target === target.id && e.targetHandle === c.targetHandle);
  if (into.some((e) => e.source === source.id && e.sourceHandle === c.sourceHandle))
    return "These handles are already connected.";
  if (into.length > 0 && !input.list)
    return `${tName} › ${input.label} takes one connection: remove the existing one first.`;
  if (reaches(target.id, source.id, edges)) return `Connecting ${sName} to ${tName} would make a cycle.`;
  return null;
}

/** Whether `to` can be reached from `from` along edges (depth-first). */
function reaches(from: string, to: string, edges: EditorEdge[]): boolean {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(next.get(id) ?? []));
  }
  return false;
}
