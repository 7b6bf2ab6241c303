import { handleId } from "@/common/nodes/handles";
import type { NodeDefinition } from "@/common/nodes/types";
import type { GraphEdge } from "@/common/schemas/graph";
import type { FlowiseEdge, FlowiseMapping, FlowiseNode } from "./types";

/**
 * Agentflow control edges: Flowise draws them from `<id>-output-<name or index>` to the step itself
 * (its target handle is its id); ours go from the step's output to the next step's `input` anchor.
 */

export interface MappedStep {
  flowise: FlowiseNode;
  mapping: FlowiseMapping;
  def: NodeDefinition;
  label: string;
}

type Drop = (nodeId: string, label: string, input: string, reason: string) => void;

/** Our output for a Flowise one: the mapping's say (branches), else a step's one output. */
function ourOutput(source: MappedStep, flowiseOutput: string): string | undefined {
  const step = source.mapping.step!;
  if (step.output) return step.output(flowiseOutput, source.flowise);
  return source.def.outputs.some((o) => o.name === "output") ? "output" : undefined;
}

/** The control edge of ours for a Flowise edge into a step, or undefined when there is none to keep. */
export function controlEdge(
  e: FlowiseEdge,
  mapped: ReadonlyMap<string, MappedStep>,
  drop: Drop,
): GraphEdge | undefined {
  const target = mapped.get(e.target);
  const source = mapped.get(e.source);
  // Not into a step (a note's edge), or from or to a node listed as unmapped already.
  if (!target?.mapping.step || !source) return undefined;
  if (!source.mapping.step) {
    drop(target.flowise.id, target.label, "input", `the connection from ${e.source} does not come from a step`);
    return undefined;
  }
  const prefix = `${e.source}-output-`;
  const flowiseOutput = e.sourceHandle?.startsWith(prefix)
    ? e.sourceHandle.slice(prefix.length)
    : source.flowise.data.name;
  const output = ourOutput(source, flowiseOutput);
  if (!output || !target.def.inputs.some((i) => i.kind === "anchor" && i.name === "input")) {
    drop(
      target.flowise.id,
      target.label,
      "input",
      `"${source.label}" (${e.source}) output "${flowiseOutput}" has no equivalent`,
    );
    return undefined;
  }
  return {
    id: `${e.source}-${output}-${e.target}`,
    source: e.source,
    sourceHandle: handleId(e.source, output, "out"),
    target: e.target,
    targetHandle: handleId(e.target, "input", "in"),
  };
}

/** Flowise numbers a branching step's outputs: one per item of `list` (`branchN` here), then else. */
export function branchOutput(list: string) {
  return (flowiseOutput: string, node: FlowiseNode): string | undefined => {
    if (!/^\d+$/.test(flowiseOutput)) return undefined;
    const n = Number(flowiseOutput);
    const raw = node.data.inputs?.[list];
    const count = Array.isArray(raw) ? raw.length : 0;
    return n < count ? `branch${n}` : n === count ? "else" : undefined;
  };
}
