import type { BaseChain } from "@langchain/classic/chains";
import { AppError } from "@/common/errors";
import { isMemory, takesImages } from "@/common/nodes/capabilities";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition, getNode } from "../nodes/registry";
import { anchorInputs } from "@/common/nodes/types";
import type { Graph, GraphNode } from "@/common/schemas/graph";
import { getEndingNode, nodesReaching, topologicalOrder } from "@/common/flow/graph-order";
import { runEndingChain } from "./run";
import type { BuildContext, BuiltFlow } from "./types";
import { describeNode } from "@/common/flow/validate";
import { validateGraph } from "./validate-saved";

/**
 * Built inputs of a node by anchor name (one object, or an array for list anchors), and the ids of
 * the nodes connected to each anchor, in the same order.
 */
function inputsFor(graph: Graph, node: GraphNode, built: Map<string, unknown>) {
  const def = getDefinition(node.type)!;
  const inputs: Record<string, unknown> = {};
  const sources: Record<string, string[]> = {};
  for (const anchor of anchorInputs(def)) {
    const handle = `${node.id}:in:${anchor.name}`;
    const ids = graph.edges.filter((e) => e.target === node.id && e.targetHandle === handle).map((e) => e.source);
    const values = ids.map((id) => built.get(id));
    inputs[anchor.name] = anchor.list ? values : values[0];
    sources[anchor.name] = ids;
  }
  return { inputs, sources };
}

async function buildNode(
  graph: Graph,
  node: GraphNode,
  built: Map<string, unknown>,
  ctx: BuildContext,
): Promise<unknown> {
  const def = getDefinition(node.type)!;
  const runtime = getNode(node.type)?.runtime;
  const label = node.data.label || def.label;
  if (!runtime) throw new AppError("invalid_graph", `Node ${describeNode(node, def)} has no runtime on this server.`);
  const params = paramsSchemaFor(def).parse(node.data.inputs);
  try {
    return await runtime({ nodeId: node.id, label, params, ...inputsFor(graph, node, built), ctx });
  } catch (e) {
    if (e instanceof AppError) throw e;
    ctx.logger?.warn?.("node build failed", { chatflowId: ctx.chatflowId, nodeId: node.id, error: String(e) });
    throw new AppError("invalid_graph", `Node ${describeNode(node, def)} could not be built: ${(e as Error).message}`, {
      details: [{ nodeId: node.id, message: (e as Error).message }],
      cause: e,
    });
  }
}

/**
 * Builds only the given nodes and every node feeding them, in dependency order (e.g. the subgraph
 * of the vector stores an upsert writes to). The graph must already be valid. Returns the built
 * objects by node id.
 */
export async function buildNodes(
  graph: Graph,
  targetIds: readonly string[],
  ctx: BuildContext,
): Promise<Map<string, unknown>> {
  const needed = new Set(targetIds.flatMap((id) => [...nodesReaching(graph, id)]));
  const built = new Map<string, unknown>();
  for (const node of topologicalOrder(graph)) {
    if (needed.has(node.id)) built.set(node.id, await buildNode(graph, node, built, ctx));
  }
  return built;
}

/**
 * Validates and builds a graph: every node in dependency order, each receiving the built objects of
 * its anchors by input name. The result is stateless per run, so one build serves concurrent
 * requests (see FlowCache). Build errors are AppErrors naming the node.
 */
export async function buildFlow(graphInput: unknown, ctx: BuildContext): Promise<BuiltFlow> {
  const graph = validateGraph(graphInput);
  const ending = getEndingNode(graph);
  const built = new Map<string, unknown>();
  for (const node of topologicalOrder(graph)) built.set(node.id, await buildNode(graph, node, built, ctx));
  const chain = built.get(ending.id) as BaseChain;
  const defs = graph.nodes.map((n) => ({ node: n, def: getDefinition(n.type)! }));
  const memory = defs.find((d) => isMemory(d.def));
  const historyLimit = memoryWindow(defs.filter((d) => isMemory(d.def)).map((d) => built.get(d.node.id)));
  const allowsImages = defs.some((d) => takesImages(d.def, d.node.data.inputs));
  return {
    chatflowId: ctx.chatflowId,
    endingNodeId: ending.id,
    ...(memory ? { memoryType: memory.def.label } : {}),
    ...(historyLimit ? { historyLimit } : {}),
    allowsImages,
    run: (input) => runEndingChain(chain, input, allowsImages),
  };
}

/**
 * The largest window of the built memory nodes (`window` of a ChatHistoryMemory: the most messages it
 * shows); undefined when one has none (it shows all history).
 */
function memoryWindow(memories: unknown[]): number | undefined {
  let largest = 0;
  for (const m of memories) {
    const window = typeof m === "object" && m !== null ? (m as { window?: unknown }).window : undefined;
    if (typeof window !== "number" || !(window > 0)) return undefined;
    largest = Math.max(largest, window);
  }
  return largest || undefined;
}
