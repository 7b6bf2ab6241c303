import type { DefinitionLookup } from "@/common/nodes/catalog";
import { canConnect, handleId } from "@/common/nodes/handles";
import type { NodeDefinition } from "@/common/nodes/types";
import type { GraphEdge, GraphNode } from "@/common/schemas/graph";
import { REFUSED_FLOWISE_TYPES } from "./refused";
import { richTextDeep } from "./rich-text";
import { convertWith, isUnset, parseReference } from "./rules";
import type { FlowiseMapping, FlowiseNode, ImportWarning, InputRule } from "./types";

/**
 * One Flowise node's inputs as our node's params (./convert.ts), and the components an agentflow
 * step embeds (its model, its tools) as nodes of ours connected to it.
 */

/** Where conversion reports: what cannot be kept, what the builder should know, the mappings. */
export interface ConversionSink {
  drop(nodeId: string, label: string, input: string, reason: string): void;
  warnings: ImportWarning[];
  byFlowise: ReadonlyMap<string, FlowiseMapping>;
  getDefinition: DefinitionLookup;
  /** Ids taken so far (Flowise's and the embedded nodes'): an embedded node's id is new. */
  ids: Set<string>;
}

/** Reports about an embedded component go to the step that holds it, under `<config input>.<input>`. */
interface Owner {
  nodeId: string;
  label: string;
  prefix: string;
}

const CREDENTIAL_INPUT = "FLOWISE_CREDENTIAL_ID";

/** The node ids a value refers to: one reference, or a list of them (list anchors). */
export function references(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  return values.map(parseReference).filter((r): r is string => r !== undefined);
}

/** Inputs that hold an embedded component's settings: converted with the component, not here. */
function configInputs(mapping: FlowiseMapping): Set<string> {
  return new Set(Object.values(mapping.inputs).flatMap((r) => (r.kind === "component" ? [r.config] : [])));
}

/** Our params from a Flowise node's inputs; the credential left to connect (a warning). */
export function convertParams(
  node: FlowiseNode,
  mapping: FlowiseMapping,
  def: NodeDefinition,
  sink: ConversionSink,
  owner?: Owner,
): Record<string, unknown> {
  const label = owner?.label ?? String(node.data.label ?? node.id);
  const at = (input: string) => ({ nodeId: owner?.nodeId ?? node.id, input: `${owner?.prefix ?? ""}${input}` });
  const drop = (input: string, reason: string) => sink.drop(at(input).nodeId, label, at(input).input, reason);
  const warn = (input: string, kind: ImportWarning["kind"], message: string) =>
    sink.warnings.push({ ...at(input), label, kind, message });
  const configs = configInputs(mapping);
  const params: Record<string, unknown> = {};
  for (const [input, raw] of Object.entries(node.data.inputs ?? {})) {
    const rule: InputRule | undefined = mapping.inputs[input];
    if (input === CREDENTIAL_INPUT || configs.has(input) || rule?.kind === "anchor" || rule?.kind === "component")
      continue;
    if (isUnset(raw)) continue;
    if (!rule) {
      const refs = references(raw);
      drop(
        input,
        refs.length
          ? `the connection from ${refs.join(", ")} has no equivalent input on our ${def.label}`
          : `no equivalent setting on our ${def.label}`,
      );
      continue;
    }
    const rich = mapping.richText === true || (!!mapping.richText && !mapping.richText.except.includes(input));
    const value = rich ? richTextDeep(raw) : raw;
    if (rule.kind === "ignore") {
      if (!rule.when || rule.when(value)) {
        if (rule.warning) warn(input, "approximated", rule.warning);
      } else drop(input, rule.reason);
      continue;
    }
    const r = convertWith(rule.convert, value, { node, input });
    if ("drop" in r) drop(input, r.drop);
    else {
      if ("value" in r) params[rule.to] = r.value;
      if (r.warning) warn(input, "approximated", r.warning);
    }
  }
  if (mapping.note)
    sink.warnings.push({ nodeId: owner?.nodeId ?? node.id, label, kind: "approximated", message: mapping.note });
  const credentialId = node.data.credential || node.data.inputs?.[CREDENTIAL_INPUT];
  if (!isUnset(credentialId)) {
    if (mapping.credential)
      warn(
        mapping.credential,
        "credential",
        `Connect a credential: Flowise credential ${String(credentialId)} stays in Flowise (credentials are never exported).`,
      );
    else drop("credential", `our ${def.label} takes no credential`);
  }
  return params;
}

/** One embedded component: its Flowise type and that node's inputs. */
interface Embedded {
  name: unknown;
  config: unknown;
}

function embeddedOf(value: unknown, rule: Extract<InputRule, { kind: "component" }>, inputs: Record<string, unknown>) {
  if (!rule.list) return [{ name: value, config: inputs[rule.config] }];
  const items = Array.isArray(value) ? value : [];
  return items
    .filter((i): i is Record<string, unknown> => !!i && typeof i === "object")
    .map((i): Embedded => ({ name: i[rule.list!.name], config: i[rule.config] }));
}

function freshId(base: string, ids: Set<string>): string {
  let id = base;
  for (let n = 2; ids.has(id); n += 1) id = `${base}_${n}`;
  ids.add(id);
  return id;
}

/**
 * The components a step embeds (Flowise keeps an agentflow node's model and tools inside it), as
 * nodes of ours placed below the step and connected to its anchors.
 */
export function embeddedNodes(
  step: FlowiseNode,
  mapping: FlowiseMapping,
  def: NodeDefinition,
  position: { x: number; y: number },
  sink: ConversionSink,
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const inputs = step.data.inputs ?? {};
  const label = String(step.data.label ?? step.id);
  for (const [input, rule] of Object.entries(mapping.inputs)) {
    if (rule.kind !== "component") continue;
    for (const [i, part] of embeddedOf(inputs[input], rule, inputs).entries()) {
      if (isUnset(part.name)) continue;
      const name = String(part.name);
      const theirs = sink.byFlowise.get(name);
      const ours = theirs && !REFUSED_FLOWISE_TYPES[name] ? sink.getDefinition(theirs.type) : undefined;
      const anchor = def.inputs.find((a) => a.name === rule.to);
      const out = ours?.outputs.find((o) => canConnect(ours, o.name, def, rule.to));
      if (!theirs || !ours || !out) {
        const why = `Flowise's ${name} has no equivalent ${rule.what} here`;
        if (rule.missing === "warn")
          sink.warnings.push({
            nodeId: step.id,
            label,
            kind: "approximated",
            input,
            message: `${why}: it is left out; connect a ${rule.what} of ours to “${anchor?.label ?? rule.to}”.`,
          });
        else sink.drop(step.id, label, input, why);
        continue;
      }
      const config = part.config && typeof part.config === "object" ? (part.config as Record<string, unknown>) : {};
      const { credential, [input]: _selector, ...rest } = config;
      const id = freshId(`${step.id}_${rule.to}${rule.list ? `_${i}` : ""}`, sink.ids);
      const embedded: FlowiseNode = {
        id,
        data: {
          name,
          label: ours.label,
          inputs: rule.list ? Object.fromEntries(Object.entries(rest).filter(([k]) => k !== rule.list!.name)) : rest,
          credential: typeof credential === "string" ? credential : undefined,
        },
      };
      const prefix = rule.list ? `${input}[${i}].${rule.config}.` : `${rule.config}.`;
      const params = convertParams(embedded, theirs, ours, sink, { nodeId: step.id, label, prefix });
      nodes.push({
        id,
        type: ours.name,
        version: ours.version,
        position: { x: position.x + 40 * nodes.length, y: position.y + 160 + 110 * nodes.length },
        data: { inputs: params, label: ours.label },
      });
      edges.push({
        id: `${id}-${step.id}-${rule.to}`,
        source: id,
        sourceHandle: handleId(id, out.name, "out"),
        target: step.id,
        targetHandle: handleId(step.id, rule.to, "in"),
      });
    }
  }
  return { nodes, edges };
}
