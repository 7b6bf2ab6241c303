import { getDefinition } from "../nodes/registry";
import type { Graph, GraphEdge, GraphNode } from "@/common/schemas/graph";
import type { VersionDiff } from "@/common/schemas/chatflow-version";

/** What a version holds that a diff compares (its graph read with the graph schema). */
export type DiffableVersion = {
  version: number;
  graph: Graph;
  overrideAllowList: string[];
  speechToText: unknown;
};

/** Names credentials by id (never their values); unknown ids come back as undefined. */
export type CredentialNames = (ids: string[]) => Promise<Map<string, string>>;

const MAX_VALUE_CHARS = 500;

/** A node as a diff lists it. */
function nodeRef(n: GraphNode) {
  return { id: n.id, type: n.type, label: n.data.label ?? getDefinition(n.type)?.label ?? n.type };
}

/** An edge as a diff lists it: its ends by node and handle. */
function edgeRef(e: GraphEdge) {
  return { id: e.id, source: e.source, sourceHandle: e.sourceHandle, target: e.target, targetHandle: e.targetHandle };
}

function edgeKey(e: GraphEdge) {
  return `${e.source}\u0000${e.sourceHandle}\u0000${e.target}\u0000${e.targetHandle}`;
}

function same(a: unknown, b: unknown) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Whether a node's input holds a credential id (its definition says so). */
function isCredentialInput(type: string, input: string) {
  const def = getDefinition(type);
  return def?.inputs.some((i) => i.kind === "param" && i.name === input && i.type === "credential") ?? false;
}

function inputLabel(type: string, input: string) {
  const def = getDefinition(type);
  const found = def?.inputs.find((i) => i.name === input);
  return found?.label ?? input;
}

/** A value as the diff shows it: long text shortened (a pasted spec or file need not travel whole). */
function shown(value: unknown): unknown {
  if (typeof value === "string" && value.length > MAX_VALUE_CHARS) return `${value.slice(0, MAX_VALUE_CHARS)}…`;
  if (value !== null && typeof value === "object") {
    const text = JSON.stringify(value);
    if (text.length > MAX_VALUE_CHARS) return `${text.slice(0, MAX_VALUE_CHARS)}…`;
  }
  return value;
}

type InputChange = { nodeId: string; nodeLabel: string; input: string; inputLabel: string; old: unknown; new: unknown };

/** Inputs of nodes present in both versions whose values differ (credentials as ids, named later). */
function changedInputs(from: Graph, to: Graph): { changes: InputChange[]; credentialIds: Set<string> } {
  const before = new Map(from.nodes.map((n) => [n.id, n]));
  const changes: InputChange[] = [];
  const credentialIds = new Set<string>();
  for (const node of to.nodes) {
    const old = before.get(node.id);
    if (!old || old.type !== node.type) continue;
    const oldInputs = old.data?.inputs ?? {};
    const newInputs = node.data?.inputs ?? {};
    const names = [...new Set([...Object.keys(oldInputs), ...Object.keys(newInputs)])].sort();
    for (const input of names) {
      if (same(oldInputs[input], newInputs[input])) continue;
      if (isCredentialInput(node.type, input)) {
        for (const v of [oldInputs[input], newInputs[input]]) if (typeof v === "string" && v) credentialIds.add(v);
      }
      changes.push({
        nodeId: node.id,
        nodeLabel: nodeRef(node).label,
        input,
        inputLabel: inputLabel(node.type, input),
        old: oldInputs[input] ?? null,
        new: newInputs[input] ?? null,
      });
    }
  }
  return { changes, credentialIds };
}

/**
 * Run settings (override allow-list, speech-to-text keys) whose values differ. The chatbot config is
 * left out: it is not part of a version (it applies at once), so two versions never differ by it.
 */
function changedSettings(from: DiffableVersion, to: DiffableVersion) {
  const changes: { setting: string; old: unknown; new: unknown }[] = [];
  if (!same(from.overrideAllowList, to.overrideAllowList))
    changes.push({ setting: "overrideAllowList", old: from.overrideAllowList, new: to.overrideAllowList });
  const a = (from.speechToText ?? {}) as Record<string, unknown>;
  const b = (to.speechToText ?? {}) as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (!same(a[key], b[key]))
      changes.push({ setting: `speechToText.${key}`, old: a[key] ?? null, new: b[key] ?? null });
  }
  return changes;
}

/**
 * The readable difference from version `from` to version `to`: nodes and edges added and removed,
 * each changed input of the nodes both have (old → new), each changed run setting. Credentials are
 * shown by name only (`credentialNames`), never by value; long values are shortened.
 */
export async function diffVersions(
  from: DiffableVersion,
  to: DiffableVersion,
  credentialNames: CredentialNames,
): Promise<VersionDiff> {
  const a = from.graph;
  const b = to.graph;
  const key = (n: GraphNode) => `${n.id}\u0000${n.type}`;
  const aNodes = new Set(a.nodes.map(key));
  const bNodes = new Set(b.nodes.map(key));
  const aEdges = new Set(a.edges.map(edgeKey));
  const bEdges = new Set(b.edges.map(edgeKey));
  const inputs = changedInputs(a, b);
  const settings = changedSettings(from, to);
  const stt = [from.speechToText, to.speechToText].map((s) => (s as { credentialId?: unknown })?.credentialId);
  for (const id of stt) if (typeof id === "string" && id) inputs.credentialIds.add(id);
  const names = inputs.credentialIds.size ? await credentialNames([...inputs.credentialIds]) : new Map();
  const named = (v: unknown) =>
    typeof v === "string" && inputs.credentialIds.has(v) ? { credential: names.get(v) ?? "(deleted credential)" } : v;
  return {
    from: from.version,
    to: to.version,
    nodesAdded: b.nodes.filter((n) => !aNodes.has(key(n))).map(nodeRef),
    nodesRemoved: a.nodes.filter((n) => !bNodes.has(key(n))).map(nodeRef),
    edgesAdded: b.edges.filter((e) => !aEdges.has(edgeKey(e))).map(edgeRef),
    edgesRemoved: a.edges.filter((e) => !bEdges.has(edgeKey(e))).map(edgeRef),
    inputsChanged: inputs.changes.map((c) => ({ ...c, old: shown(named(c.old)), new: shown(named(c.new)) })),
    // The allow-list travels whole (at most 200 short names): the studio lists each param added or
    // removed, which a shortened list would get wrong.
    settingsChanged: settings.map((s) =>
      s.setting === "overrideAllowList"
        ? s
        : {
            ...s,
            old: shown(s.setting === "speechToText.credentialId" ? named(s.old) : s.old),
            new: shown(s.setting === "speechToText.credentialId" ? named(s.new) : s.new),
          },
    ),
  };
}
