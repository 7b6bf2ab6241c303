import type { BuildContext } from "../flow/types";

/**
 * What a node runtime receives: validated params (defaults applied) and built inputs by name. The
 * untyped form, as the flow builder calls it; a node's own runtime sees them typed from its
 * definition (NodeRuntimeArgs in ./define.ts).
 */
export interface RuntimeArgs {
  nodeId: string;
  /** The node's label on the canvas (or its definition label), for error messages. */
  label: string;
  params: Record<string, unknown>;
  /** Built objects of connected anchors by input name; a list anchor gives an array. */
  inputs: Record<string, unknown>;
  /** The ids of the nodes connected to each anchor, in the order of `inputs` (absent: not known). */
  sources?: Record<string, string[]>;
  ctx: BuildContext;
}
