import { AppError } from "@/common/errors";
import { paramFieldSchema } from "@/common/nodes/params";
import { NEVER_OVERRIDABLE } from "../nodes/overridable";
import { getDefinition } from "../nodes/registry";
import { paramInputs, type ParamInput } from "@/common/nodes/types";
import type { Graph } from "@/common/schemas/graph";

/**
 * overrideConfig of a prediction request: changes param values of the saved graph for one run.
 * Only keys the chatflow's owner allowed are accepted; params that choose where requests go or what
 * runs (lib/nodes/overridable.ts) can never be overridden, whatever an old allow-list says (a caller
 * must not point a flow's keys at their own server, nor a flow at an internal address).
 */

/** Keys of overrideConfig that are not param overrides (handled by the prediction service). */
export const RESERVED_OVERRIDE_KEYS: readonly string[] = ["sessionId", "returnSourceDocuments"];

interface Target {
  nodeId: string;
  param: ParamInput;
}

function targetsFor(graph: Graph, key: string): Target[] {
  const out: Target[] = [];
  for (const node of graph.nodes) {
    const def = getDefinition(node.type);
    const param = def && paramInputs(def).find((p) => p.name === key);
    if (param) out.push({ nodeId: node.id, param });
  }
  return out;
}

/** `{ nodeId: value }` when every key of an object value names a node having this param. */
function perNodeValues(value: unknown, targets: Target[]): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length === 0 || !keys.every((k) => targets.some((t) => t.nodeId === k))) return undefined;
  return value as Record<string, unknown>;
}

function checkedValue(key: string, target: Target, value: unknown): unknown {
  const r = paramFieldSchema(target.param).safeParse(value);
  if (!r.success) {
    throw new AppError(
      "validation_failed",
      `overrideConfig.${key} is not valid for node ${target.nodeId}: ${r.error.issues[0].message}.`,
      {
        details: [{ nodeId: target.nodeId, input: key, message: r.error.issues[0].message }],
      },
    );
  }
  return r.data;
}

/**
 * A copy of `graph` with overrideConfig applied. Each key (except the reserved ones) must be in
 * `allowList`; its value applies to every node having a param of that name, or is `{ [nodeId]: value }`
 * to target nodes. Values are validated by the param's schema. Errors are AppError("validation_failed").
 */
export function applyOverrides(
  graph: Graph,
  overrideConfig: Record<string, unknown> | undefined,
  allowList: readonly string[],
): Graph {
  const next: Graph = structuredClone(graph);
  for (const [key, value] of Object.entries(overrideConfig ?? {})) {
    if (RESERVED_OVERRIDE_KEYS.includes(key)) continue;
    // Checked before the allow-list: a chatflow saved before this rule may still list these.
    if (NEVER_OVERRIDABLE.includes(key)) {
      throw new AppError(
        "validation_failed",
        `overrideConfig.${key} chooses where the flow's requests go or what it runs and can never be overridden.`,
        { details: [{ input: key, message: "never overridable" }] },
      );
    }
    if (!allowList.includes(key)) {
      throw new AppError(
        "validation_failed",
        `overrideConfig.${key} is not allowed for this chatflow. The chatflow's owner can allow it in the chatflow's settings (override allow list).`,
        { details: [{ input: key, message: "not in the override allow list" }] },
      );
    }
    const targets = targetsFor(next, key);
    if (targets.length === 0)
      throw new AppError("validation_failed", `overrideConfig.${key} matches no input of this chatflow.`);
    const perNode = perNodeValues(value, targets);
    for (const t of targets) {
      if (perNode && !(t.nodeId in perNode)) continue;
      const node = next.nodes.find((n) => n.id === t.nodeId)!;
      node.data.inputs[key] = checkedValue(key, t, perNode ? perNode[t.nodeId] : value);
    }
  }
  return next;
}
