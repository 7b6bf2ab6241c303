import type { BuildContext } from "../flow/types";

/** What a node runtime receives: validated params (defaults applied) and built inputs by name. */
export interface RuntimeArgs {
  nodeId: string;
  /** The node's label on the canvas (or its definition label), for error messages. */
  label: string;
  params: Record<string, unknown>;
  /** Built objects of connected anchors by input name; a list anchor gives an array. */
  inputs: Record<string, unknown>;
  ctx: BuildContext;
}

/** Builds a node's LangChain object (server-only). */
export type NodeRuntime = (args: RuntimeArgs) => Promise<unknown>;
