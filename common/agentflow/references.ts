import type { DefinitionLookup } from "@/common/nodes/catalog";
import type { NodeDefinition, ParamInput } from "@/common/nodes/types";
import type { Graph, GraphNode } from "@/common/schemas/graph";
import { type FlowGraph, flowGraph, stepRole } from "./graph";

/**
 * What a `{{…}}` of an agentflow step's field can name at that step, for the studio's autocomplete:
 * the question and history, the flow state Start declares, the run's ids, the form's fields, the
 * steps upstream (and the keys of their structured output), the item of the Iteration around it,
 * the server's global variables, and a step's own output where it writes flow state. Pure; the
 * save-time check (validate.ts) reads the same declarations (`startKeys`).
 */

export interface VariableReference {
  /** What goes between the braces, e.g. `$flow.state.order`. */
  name: string;
  /** A few words on what it is. */
  detail: string;
}

/** Start's params that declare the flow state and the form (Flowise's names). */
const START_STATE = "startState";
const START_FORM = "formInputTypes";
/** A structured-output list param: `[{ key, type, … }]`, each key a field of the step's output. */
const STRUCTURED_OUTPUT = /StructuredOutput$/;
/** A flow-state update param (`[{ key, value }]`), whose values may name the step's own `{{output}}`. */
const UPDATE_STATE = /UpdateState$/;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The non-empty `field` of each item of a list param (saved as an array, or as JSON text while edited). */
export function listKeys(value: unknown, field: string): string[] {
  const list = typeof value === "string" ? safeJson(value) : value;
  if (!Array.isArray(list)) return [];
  const keys = list
    .map((i) => (i && typeof i === "object" ? (i as Record<string, unknown>)[field] : undefined))
    .filter((k): k is string => typeof k === "string" && k !== "");
  return [...new Set(keys)];
}

/** The flow-state keys and form fields a Start node declares. */
export function startKeys(start: GraphNode | undefined): { state: Set<string>; form: Set<string> } {
  const inputs = start?.data.inputs ?? {};
  return { state: new Set(listKeys(inputs[START_STATE], "key")), form: new Set(listKeys(inputs[START_FORM], "name")) };
}

/**
 * Whether a field of a step takes `{{variables}}` (and gets the autocomplete): text, JSON and plain
 * string params of a step (not Start's declarations, not a note, not code, not the Loop's target
 * or a field with its own pattern or suggestions).
 */
export function takesVariables(def: NodeDefinition, param: ParamInput): boolean {
  const step = def.capabilities?.agentflow;
  if (step?.role !== "step" || param.name === step.loopTarget) return false;
  if (param.type === "text" || param.type === "json") return true;
  return param.type === "string" && !param.pattern && !param.suggestions?.length;
}

/** Steps from which `id` is reached along control edges of its level, `id` left out. */
function upstream(fg: FlowGraph, id: string): string[] {
  const seen = new Set<string>();
  const todo = [id];
  while (todo.length) {
    for (const e of fg.in.get(todo.pop()!) ?? []) {
      if (!seen.has(e.source)) {
        seen.add(e.source);
        todo.push(e.source);
      }
    }
  }
  seen.delete(id);
  return [...seen];
}

/** The control graph of the level holding `node` (the top one, or the sub-graph of its Iteration, at any depth). */
function levelOf(fg: FlowGraph, id: string): FlowGraph | undefined {
  if (fg.steps.has(id)) return fg;
  for (const sub of fg.subgraphs.values()) {
    const found = levelOf(sub, id);
    if (found) return found;
  }
  return undefined;
}

/**
 * Everything a `{{…}}` may name in field `param` of step `nodeId` of `graph`. `variables`: the
 * names of the server's global variables (`$vars.…`), when known.
 */
export function variableReferencesAt(
  graph: Graph,
  nodeId: string,
  lookup: DefinitionLookup,
  opts: { param?: string; variables?: readonly string[] } = {},
): VariableReference[] {
  const fg = flowGraph(graph, lookup);
  const refs: VariableReference[] = [
    { name: "question", detail: "the user's question" },
    { name: "chat_history", detail: "the conversation so far" },
  ];
  const { state, form } = startKeys(fg.start);
  for (const key of state) refs.push({ name: `$flow.state.${key}`, detail: "flow state (declared in Start)" });
  for (const key of form) refs.push({ name: `$form.${key}`, detail: "a field of Start's form" });
  refs.push(
    { name: "$flow.sessionId", detail: "the session's id" },
    { name: "$flow.chatId", detail: "the chat's id" },
    { name: "$flow.chatflowId", detail: "this flow's id" },
  );
  if (opts.param && UPDATE_STATE.test(opts.param)) refs.push({ name: "output", detail: "this step's own output" });
  // The steps before this one: on its level, then (inside an Iteration) those before each Iteration around it.
  const before: string[] = [];
  let node = graph.nodes.find((n) => n.id === nodeId);
  let level = node ? levelOf(fg, node.id) : undefined;
  const inside = !!node?.parentNode;
  while (node && level) {
    before.push(...upstream(level, node.id));
    const parent: GraphNode | undefined = node.parentNode
      ? graph.nodes.find((n) => n.id === node!.parentNode)
      : undefined;
    node = parent;
    level = parent ? levelOf(fg, parent.id) : undefined;
  }
  for (const id of before) {
    const step = graph.nodes.find((n) => n.id === id)!;
    const def = lookup(step.type);
    if (stepRole(def) !== "step") continue;
    refs.push({ name: id, detail: `output of ${step.data.label || def!.label}` });
    const structured = def!.inputs.find((i) => i.kind === "param" && STRUCTURED_OUTPUT.test(i.name));
    for (const key of structured ? listKeys(step.data.inputs[structured.name], "key") : [])
      refs.push({ name: `${id}.${key}`, detail: `${key} of ${step.data.label || def!.label}'s structured output` });
  }
  if (inside) refs.push({ name: "$iteration", detail: "the Iteration's current item" });
  for (const name of opts.variables ?? []) refs.push({ name: `$vars.${name}`, detail: "global variable" });
  refs.push({ name: "current_date_time", detail: "now, ISO 8601" });
  return refs;
}
