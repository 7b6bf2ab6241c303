import { z } from "zod";

/**
 * Graph problems as data: a code, the node and input they concern, and the values a sentence
 * needs (`params`). common/flow/validate.ts produces them; the words are rendered at the edge by
 * `renderProblem` (common/schemas/problem-text.ts): in the API's error message and on the canvas.
 */

/** Another node named in a problem: its id and the label the canvas shows for it. */
const nodeRef = z.object({ id: z.string(), label: z.string() });
const label = z.string();
const inputLabel = z.string();

function problem<C extends string, P extends z.ZodRawShape>(code: C, params: P) {
  return z.object({
    code: z.literal(code),
    /** The node the problem is shown on (absent for problems of the whole flow). */
    nodeId: z.string().optional(),
    /** The input (param or anchor name) of that node the problem concerns. */
    input: z.string().optional(),
    params: z.object(params),
  });
}

export const graphProblemSchema = z.discriminatedUnion("code", [
  problem("duplicate_node_id", {}),
  problem("unknown_node_type", { label, type: z.string() }),
  /** Saved with a newer version of its definition than this server knows. */
  problem("node_version_newer", { label, typeLabel: z.string(), saved: z.number(), known: z.number() }),
  /** Saved with an older version that its definition's migration refuses. */
  problem("node_version_refused", {
    label,
    typeLabel: z.string(),
    saved: z.number(),
    known: z.number(),
    reason: z.string(),
  }),
  problem("param_required", { label, inputLabel }),
  problem("param_invalid", { label, inputLabel, reason: z.string() }),
  problem("one_of_required", { label, inputLabels: z.array(z.string()) }),
  problem("edge_missing_node", { edgeId: z.string() }),
  problem("edge_unknown_handle", { edgeId: z.string(), handle: z.string(), side: z.enum(["input", "output"]) }),
  problem("connection_type_mismatch", {
    label,
    inputLabel,
    accepts: z.array(z.string()),
    source: nodeRef,
    provides: z.array(z.string()),
  }),
  problem("connection_required", { label, inputLabel, accepts: z.array(z.string()) }),
  problem("too_many_connections", { label, inputLabel, count: z.number() }),
  problem("flow_empty", {}),
  problem("node_not_connected", { label }),
  problem("several_endings", { label, endings: z.array(nodeRef) }),
  problem("cannot_end_flow", { label }),
  problem("not_reaching_ending", { label, ending: nodeRef }),
  problem("cycle", { nodes: z.array(nodeRef) }),
  problem("invalid_shape", { path: z.string(), reason: z.string() }),
  /** Agentflows (lib/agentflow/validate.ts): exactly one Start node. */
  problem("agentflow_start", { count: z.number() }),
  /** Agentflows: control edges going round; only a Loop node may go back. */
  problem("agentflow_cycle", { nodes: z.array(nodeRef) }),
  /** Agentflows: a step the Start node never leads to. */
  problem("step_not_reachable", { label }),
  /** Agentflows: a Loop whose target is not an earlier node on its path. */
  problem("loop_target_not_upstream", { label, target: z.string() }),
  /** Agentflows: a `{{variable}}` that names nothing (no such node, an unknown name). */
  problem("unknown_variable", { label, inputLabel, variable: z.string() }),
  /** A problem the server found elsewhere (e.g. a node that failed to build), as its own words. */
  problem("other", { message: z.string() }),
]);

export type GraphProblem = z.infer<typeof graphProblemSchema>;
export type GraphProblemCode = GraphProblem["code"];
/** A problem with its params, by code. */
export type ProblemOf<C extends GraphProblemCode> = Extract<GraphProblem, { code: C }>;
export type NodeRef = z.infer<typeof nodeRef>;

/** Every problem code, in declaration order. */
export const graphProblemCodes: GraphProblemCode[] = graphProblemSchema.options.map((o) => o.shape.code.value);

/** A problem as the API lists it in `error.details`: the data plus its sentence. */
export type GraphProblemDetail = GraphProblem & { message: string };

const legacyDetailSchema = z.object({
  nodeId: z.string().optional(),
  input: z.string().optional(),
  message: z.string(),
});

/**
 * Reads one entry of an API error's `details` as a problem: a coded problem as is, an uncoded
 * `{nodeId?, input?, message}` (e.g. a node that failed to build) as code "other". Anything else
 * is not a graph problem (undefined).
 */
export function toGraphProblem(detail: unknown): GraphProblem | undefined {
  const coded = graphProblemSchema.safeParse(detail);
  if (coded.success) return coded.data;
  const legacy = legacyDetailSchema.safeParse(detail);
  if (!legacy.success) return undefined;
  const { nodeId, input, message } = legacy.data;
  return { code: "other", ...(nodeId ? { nodeId } : {}), ...(input ? { input } : {}), params: { message } };
}
