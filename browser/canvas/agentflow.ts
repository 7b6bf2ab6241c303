import { stepOutputs } from "@/common/agentflow/graph";
import { loopBackEdgeId } from "@/common/agentflow/run-path";
import type { DefinitionLookup } from "@/common/nodes/catalog";
import type { NodeDefinition, NodeOutput } from "@/common/nodes/types";
import { DEFAULT_SIZE } from "./layout";
import type { EditorEdge, EditorNode } from "./types";

/**
 * What an agentflow adds to the canvas, as plain functions: the back edges Loops draw (never saved:
 * the Loop's param is the truth), where the steps inside an Iteration sit, and what its branches
 * are called.
 */

/** Where a group's steps start inside it: right of its own form (264 px wide), below its title. */
export const GROUP_INSET = { left: 296, top: 44 };
const GROUP_PAD = 24;

/** The id of the step a Loop's target names: the id itself, or Flowise's `<id>-<label>`. */
export function loopTargetOf(value: unknown, ids: ReadonlySet<string>): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  if (ids.has(value)) return value;
  for (let dash = value.lastIndexOf("-"); dash > 0; dash = value.lastIndexOf("-", dash - 1)) {
    if (ids.has(value.slice(0, dash))) return value.slice(0, dash);
  }
  return undefined;
}

/** Each Loop and the step it goes back to, as "loopId>targetId" (a stable key for a selector). */
export function loopPairs(nodes: EditorNode[], lookup: DefinitionLookup): string {
  const ids = new Set(nodes.map((n) => n.id));
  const pairs: string[] = [];
  for (const n of nodes) {
    const param = lookup(n.data.defName)?.capabilities?.agentflow?.loopTarget;
    const target = param && loopTargetOf(n.data.inputs[param], ids);
    if (target) pairs.push(`${n.id}>${target}`);
  }
  return pairs.join(" ");
}

/** The handle a Loop's back edge leaves from (drawn on the Loop, not a connection anyone makes). */
export const LOOP_BACK_HANDLE = "loop-back";

/** The dashed back edges of `loopPairs`, drawn into the target's left side; not selectable, never saved. */
export function loopBackEdges(pairs: string): EditorEdge[] {
  if (!pairs) return [];
  return pairs.split(" ").map((pair) => {
    const [source, target] = pair.split(">");
    return {
      id: loopBackEdgeId(source),
      source,
      target,
      sourceHandle: `${source}:${LOOP_BACK_HANDLE}`,
      targetHandle: `${target}:${LOOP_BACK_HANDLE}`,
      type: "smoothstep",
      animated: true,
      selectable: false,
      deletable: false,
      focusable: false,
      label: "loop",
      style: { stroke: "#c026d3", strokeWidth: 2, strokeDasharray: "6 4" },
    };
  });
}

/**
 * Moves the steps inside each group clear of the group's form (a Flowise export places them from its
 * top left, where our form is), keeping their arrangement. Other nodes are returned as they are.
 */
export function clearOfGroupForms(nodes: EditorNode[]): EditorNode[] {
  const shift = new Map<string, { x: number; y: number }>();
  for (const n of nodes) {
    if (!n.parentId) continue;
    const s = shift.get(n.parentId) ?? { x: Number.POSITIVE_INFINITY, y: Number.POSITIVE_INFINITY };
    shift.set(n.parentId, { x: Math.min(s.x, n.position.x), y: Math.min(s.y, n.position.y) });
  }
  if (shift.size === 0) return nodes;
  return nodes.map((n) => {
    const s = n.parentId ? shift.get(n.parentId) : undefined;
    if (!s) return n;
    const dx = Math.max(0, GROUP_INSET.left - s.x);
    const dy = Math.max(0, GROUP_INSET.top - s.y);
    return dx || dy ? { ...n, position: { x: n.position.x + dx, y: n.position.y + dy } } : n;
  });
}

/** A group's size: its form, and room for every step inside it (measured, or the default size). */
export function groupSize(
  children: { position: { x: number; y: number }; measured?: { width?: number; height?: number } }[],
  formHeight: number,
): { width: number; height: number } {
  let width = GROUP_INSET.left + DEFAULT_SIZE.width + GROUP_PAD;
  let height = formHeight + GROUP_PAD;
  for (const c of children) {
    width = Math.max(width, c.position.x + (c.measured?.width ?? DEFAULT_SIZE.width) + GROUP_PAD);
    height = Math.max(height, c.position.y + (c.measured?.height ?? DEFAULT_SIZE.height) + GROUP_PAD);
  }
  return { width, height };
}

/** The label of a branch output: the scenario, or the rule (`value1 operation value2`), numbered. */
export function branchLabel(item: unknown, index: number): string {
  const o = item && typeof item === "object" ? (item as Record<string, unknown>) : {};
  const text =
    typeof o.scenario === "string"
      ? o.scenario
      : [o.value1, o.operation, o.value2].filter((v) => v !== undefined && v !== "").join(" ");
  const short = text.length > 28 ? `${text.slice(0, 27)}…` : text;
  return short ? `${index + 1}. ${short}` : `Branch ${index + 1}`;
}

/** A list param's items: an array, or the JSON text its field holds while edited. */
function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== "string") return [];
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** A placed step's outputs (stepOutputs) with its branches named after their rule or scenario. */
export function labelledOutputs(def: NodeDefinition, inputs: Record<string, unknown>): NodeOutput[] {
  const outputs = stepOutputs(def, inputs);
  const branches = def.capabilities?.agentflow?.branches;
  if (!branches) return outputs;
  const items = listOf(inputs[branches]);
  return outputs.map((o, i) => (i < items.length ? { ...o, label: branchLabel(items[i], i) } : o));
}
