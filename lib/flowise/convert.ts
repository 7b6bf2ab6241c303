import type { DefinitionLookup } from "@/common/nodes/catalog";
import { canConnect, handleId } from "@/common/nodes/handles";
import { nodeIdSchema, type Graph, type GraphEdge, type GraphNode, type GraphNote } from "@/common/schemas/graph";
import { NO_EQUIVALENT_FLOWISE_TYPES, REFUSED_FLOWISE_TYPES } from "./refused";
import { type ConversionSink, convertParams, embeddedNodes, references } from "./convert-node";
import { referencesInside } from "./rules";
import { controlEdge, type MappedStep } from "./convert-steps";
import type {
  DroppedInput,
  FlowiseFlow,
  FlowiseMapping,
  FlowiseNode,
  ImportWarning,
  InputRule,
  UnmappedNode,
} from "./types";

/**
 * Converts a Flowise chatflow to our graph, without saving anything (HTTP- and database-free).
 * Every Flowise node is either mapped (./mappings), a sticky note (kept as a canvas note), or
 * listed in `unmapped`; every set input is mapped, explicitly ignored, or listed in `dropped`.
 * The caller refuses the import when either list is not empty.
 */

export interface ConversionResult {
  graph: Graph;
  warnings: ImportWarning[];
  unmapped: UnmappedNode[];
  dropped: DroppedInput[];
}

type Mapped = MappedStep;

/** One connection into an anchor: from an edge (with its output name) or a `{{id.data.instance}}` value. */
interface Connection {
  source: string;
  output?: string;
  target: string;
  input: string;
  /** Our anchor, for a connection a mapping's `borrow` made (its input is no Flowise input). */
  borrowed?: string;
}

function labelOf(node: FlowiseNode): string {
  return String(node.data?.label || node.data?.name || node.id).slice(0, 200);
}

/** `<nodeId>-input-<name>-<type>` / `<nodeId>-output-<name>-<types>` → name. */
function handleName(handle: string | undefined, nodeId: string, kind: "input" | "output"): string | undefined {
  const prefix = `${nodeId}-${kind}-`;
  if (!handle?.startsWith(prefix)) return undefined;
  return handle.slice(prefix.length).split("-")[0] || undefined;
}

export function convertFlowiseFlow(
  flow: FlowiseFlow,
  mappings: readonly FlowiseMapping[],
  getDefinition: DefinitionLookup,
): ConversionResult {
  const byFlowise = new Map(mappings.map((m) => [m.flowise, m]));
  const unmapped: UnmappedNode[] = [];
  const droppedByKey = new Map<string, DroppedInput>();
  const warnings: ImportWarning[] = [];
  const notes: GraphNote[] = [];
  const mapped = new Map<string, Mapped>();
  const nodes: GraphNode[] = [];
  const allIds = new Set(flow.nodes.map((n) => n.id));

  const drop = (nodeId: string, label: string, input: string, reason: string) => {
    const key = `${nodeId}\u0000${input}`;
    if (!droppedByKey.has(key)) droppedByKey.set(key, { nodeId, label, input, reason });
  };

  const sink: ConversionSink = { drop, warnings, byFlowise, getDefinition, ids: new Set(allIds) };
  const embedded: GraphEdge[] = [];

  for (const node of flow.nodes) {
    const name = node.data?.name ?? "";
    const label = labelOf(node);
    const position = { x: Number(node.position?.x) || 0, y: Number(node.position?.y) || 0 };
    if ((node.type === "stickyNote" || name === "stickyNote") && !byFlowise.has(name)) {
      const text = node.data?.inputs?.note;
      notes.push({ id: node.id.slice(0, 200), position, text: typeof text === "string" ? text.slice(0, 20_000) : "" });
      continue;
    }
    const refused = REFUSED_FLOWISE_TYPES[name];
    const mapping = byFlowise.get(name);
    const def = mapping && getDefinition(mapping.type);
    if (refused || !mapping || !def) {
      unmapped.push({
        nodeId: node.id,
        label,
        flowiseType: name,
        reason:
          refused ??
          NO_EQUIVALENT_FLOWISE_TYPES[name] ??
          "no equivalent node type: rebuild this part of the flow with our nodes",
      });
      continue;
    }
    if (mapped.has(node.id)) {
      unmapped.push({ nodeId: node.id, label, flowiseType: name, reason: "another node has the same id" });
      continue;
    }
    if (!nodeIdSchema.safeParse(node.id).success) {
      unmapped.push({ nodeId: node.id, label, flowiseType: name, reason: "its id contains ':' or spaces" });
      continue;
    }
    mapped.set(node.id, { flowise: node, mapping, def, label });
    const params = convertParams({ ...node, data: { ...node.data, label } }, mapping, def, sink);
    // Inside an Iteration, a step keeps its parent (and its position, relative to the parent's).
    const parent = typeof node.parentNode === "string" ? { parentNode: node.parentNode } : {};
    nodes.push({
      id: node.id,
      type: def.name,
      version: def.version,
      position,
      ...parent,
      data: { inputs: params, label },
    });
    const parts = embeddedNodes({ ...node, data: { ...node.data, label } }, mapping, def, position, sink);
    nodes.push(...parts.nodes.map((n) => ({ ...n, ...parent })));
    embedded.push(...parts.edges);
  }

  // Connections: Flowise keeps them twice, as edges and as `{{id.data.instance}}` values of the
  // anchor inputs (an API-made record may have only the latter). Both are read, once each.
  const connections = new Map<string, Connection>();
  const connect = (c: Connection) => {
    const key = `${c.source}\u0000${c.target}\u0000${c.input}`;
    const known = connections.get(key);
    if (!known || (!known.output && c.output)) connections.set(key, c);
  };
  const control: GraphEdge[] = [];
  for (const e of flow.edges) {
    const input = handleName(e.targetHandle, e.target, "input");
    if (input) {
      connect({ source: e.source, output: handleName(e.sourceHandle, e.source, "output"), target: e.target, input });
      continue;
    }
    // An agentflow's control edge ("runs after") ends on the step itself; a note's edge on nothing we keep.
    const step = controlEdge(e, mapped, drop);
    if (step) control.push(step);
  }
  for (const { flowise, mapping } of mapped.values()) {
    for (const [input, value] of Object.entries(flowise.data.inputs ?? {})) {
      const rule = mapping.inputs[input];
      // An input our node does without still names its sources: they are left out, or borrowed.
      const sources =
        rule?.kind === "anchor" || (rule?.kind === "ignore" && !rule.when)
          ? references(value)
          : rule?.kind === "param" && rule.connections
            ? referencesInside(value)
            : [];
      for (const source of sources) connect({ source, target: flowise.id, input });
    }
  }

  borrowConnections(mapped, connections, connect);

  const edges: GraphEdge[] = [];
  const perAnchor = new Map<string, number>();
  /** Nodes that fed an input our node does without, and which input. */
  const ignoredSources = new Map<string, string>();
  for (const c of connections.values()) {
    const target = mapped.get(c.target);
    if (!target) continue; // the target node is listed as unmapped already
    const rule: InputRule | undefined = c.borrowed
      ? { kind: "anchor", to: c.borrowed }
      : target.mapping.inputs[c.input];
    const source = mapped.get(c.source);
    if (!allIds.has(c.source)) {
      drop(c.target, target.label, c.input, `refers to node ${c.source}, which is not in the flow`);
      continue;
    }
    // A connection into an input our node does without (its value was said ignored, with a warning).
    if (rule?.kind === "ignore" && !rule.when) {
      ignoredSources.set(c.source, `${target.label} (${c.target}) "${c.input}"`);
      continue;
    }
    const anchorName = rule?.kind === "anchor" ? rule.to : rule?.kind === "param" ? rule.connections : undefined;
    if (!rule || !anchorName) {
      drop(
        c.target,
        target.label,
        c.input,
        `the connection from ${c.source} has no equivalent on our ${target.def.label}`,
      );
      continue;
    }
    if (!source) continue; // the source node is listed as unmapped already
    const outName = c.output ?? String(source.flowise.data.outputs?.output ?? source.flowise.data.name);
    const ourOutput =
      source.mapping.outputs?.[outName] ??
      (outName === source.flowise.data.name && source.def.outputs.length === 1
        ? source.def.outputs[0].name
        : undefined);
    if (!ourOutput) {
      drop(c.target, target.label, c.input, `"${source.label}" (${c.source}) output "${outName}" has no equivalent`);
      continue;
    }
    if (!canConnect(source.def, ourOutput, target.def, anchorName)) {
      drop(c.target, target.label, c.input, `our ${source.def.label} cannot feed ${target.def.label} "${anchorName}"`);
      continue;
    }
    const anchorKey = `${c.target}\u0000${anchorName}`;
    const count = (perAnchor.get(anchorKey) ?? 0) + 1;
    perAnchor.set(anchorKey, count);
    const list = target.def.inputs.some((i) => i.kind === "anchor" && i.name === anchorName && i.list);
    if (count > 1 && !list) {
      drop(c.target, target.label, c.input, "takes one connection; the Flowise flow has several");
      continue;
    }
    edges.push({
      id: `${c.source}-${c.target}-${anchorName}${count > 1 ? `-${count}` : ""}`,
      source: c.source,
      sourceHandle: handleId(c.source, ourOutput, "out"),
      target: c.target,
      targetHandle: handleId(c.target, anchorName, "in"),
    });
  }

  edges.push(...embedded, ...control);
  // A node whose only connection went into such an input has nothing left to do: it is left out.
  const connected = new Set(edges.flatMap((e) => [e.source, e.target]));
  const leftOut = new Set([...ignoredSources.keys()].filter((id) => !connected.has(id)));
  for (const id of leftOut) {
    const source = mapped.get(id);
    warnings.push({
      nodeId: id,
      label: source?.label ?? id,
      kind: "approximated",
      message: `Left out: it only fed ${ignoredSources.get(id)}, which our node does without.`,
    });
  }
  return {
    graph: { nodes: nodes.filter((n) => !leftOut.has(n.id)), edges, ...(notes.length ? { notes } : {}) },
    warnings,
    unmapped,
    dropped: [...droppedByKey.values()],
  };
}

/**
 * The connections a mapping's `borrow` adds (./types.ts): for node N borrowing `{ via, input }` into
 * our anchor A, every source feeding `input` of the node connected at N's `via` also feeds N's A.
 */
function borrowConnections(
  mapped: ReadonlyMap<string, Mapped>,
  connections: ReadonlyMap<string, Connection>,
  connect: (c: Connection) => void,
) {
  const all = [...connections.values()];
  for (const { flowise, mapping } of mapped.values()) {
    for (const [to, { via, input }] of Object.entries(mapping.borrow ?? {})) {
      const middles = all.filter((c) => c.target === flowise.id && c.input === via).map((c) => c.source);
      for (const from of all.filter((c) => middles.includes(c.target) && c.input === input))
        connect({ source: from.source, output: from.output, target: flowise.id, input: `borrow:${to}`, borrowed: to });
    }
  }
}
