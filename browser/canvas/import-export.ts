import type { DefinitionLookup } from "@/common/nodes/catalog";
import type { VersionDetail } from "@/common/schemas/chatflow-version";
import { graphSchema, type Graph } from "@/common/schemas/graph";

/** Our export file: the graph with enough around it to know what it is. */
export const EXPORT_FORMAT = "switchyard-chatflow";

/** A saved version as an export with all versions lists it (the fields of GET …/versions/{n} it keeps). */
export type ExportedVersion = Pick<VersionDetail, "version" | "createdAt" | "author" | "message" | "graph">;

/**
 * Our export file. `version` is the chatflow version the graph was saved as (the draft; absent for
 * unsaved canvas changes); `versions`, when asked for, every saved version (import reads `graph`).
 */
export function exportFileText(
  name: string,
  graph: Graph,
  extra: { version?: number; versions?: ExportedVersion[] } = {},
): string {
  return JSON.stringify({ format: EXPORT_FORMAT, formatVersion: 1, name, ...extra, graph }, null, 2);
}

export function exportFileName(name: string): string {
  return `${name.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-|-$/g, "") || "chatflow"}.json`;
}

/** `nodes.0.position` + "expected object, received undefined" → `node 1: position is missing`. */
function describeIssue(issue: { path: PropertyKey[]; message: string }): string {
  const [list, index, ...rest] = issue.path;
  const where =
    typeof index === "number" && (list === "nodes" || list === "edges")
      ? `${list === "nodes" ? "node" : "edge"} ${index + 1}${rest.length ? ` ${rest.join(".")}` : ""}`
      : issue.path.join(".") || "the file";
  const what = /received undefined/.test(issue.message) ? "is missing" : issue.message.replace(/^Invalid input: /, "");
  return `${where} ${what}`;
}

export type ImportResult = { ok: true; graph: Graph; name?: string } | { ok: false; message: string };

/**
 * Reads an imported file: our export format or a bare graph. Checked with the saved-graph schema
 * and the node definitions, so a bad file gets a message naming what is wrong instead of a broken canvas.
 */
/** A Flowise export or API record: nodes carrying Flowise's `data.name`, or a `flowData` string. */
function isFlowiseExport(raw: unknown): boolean {
  if (!raw || typeof raw !== "object") return false;
  if (typeof (raw as { flowData?: unknown }).flowData === "string") return true;
  const nodes = (raw as { nodes?: unknown }).nodes;
  return (
    Array.isArray(nodes) &&
    nodes.some((n) => n && typeof n === "object" && typeof (n as { data?: { name?: unknown } }).data?.name === "string")
  );
}

export function parseImportFile(text: string, getDefinition: DefinitionLookup): ImportResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `The file is not JSON: ${(err as Error).message}` };
  }
  const wrapped =
    raw && typeof raw === "object" && "graph" in raw ? (raw as { graph: unknown; name?: unknown }) : undefined;
  if (isFlowiseExport(raw))
    return {
      ok: false,
      message:
        "This is a Flowise chatflow: bring it in with “Import from Flowise” on the chatflows list, which maps its nodes.",
    };
  const parsed = graphSchema.safeParse(wrapped ? wrapped.graph : raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map(describeIssue);
    const more = parsed.error.issues.length > 3 ? ` and ${parsed.error.issues.length - 3} more` : "";
    return { ok: false, message: `The file is not a chatflow graph: ${issues.join("; ")}${more}.` };
  }
  const unknown = [...new Set(parsed.data.nodes.map((n) => n.type).filter((t) => !getDefinition(t)))];
  if (unknown.length)
    return { ok: false, message: `The file uses node types this server does not have: ${unknown.join(", ")}.` };
  const ids = new Set(parsed.data.nodes.map((n) => n.id));
  const dangling = parsed.data.edges.find((e) => !ids.has(e.source) || !ids.has(e.target));
  if (dangling) return { ok: false, message: `Edge ${dangling.id} connects a node that is not in the file.` };
  const name = wrapped && typeof wrapped.name === "string" ? wrapped.name : undefined;
  return { ok: true, graph: parsed.data, name };
}
