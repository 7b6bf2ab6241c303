import { type NodeDefinition, paramInputs } from "@/common/nodes/types";
import { flowiseMappings } from "../flowise/mappings";
import { NO_EQUIVALENT_FLOWISE_TYPES, REFUSED_FLOWISE_TYPES } from "../flowise/refused";
import { nodeDefinitions } from "./registry";

/** Where the generated node catalogue lives (`npm run docs:nodes` writes it; a test fails when stale). */
export const NODE_CATALOGUE_FILE = "docs/node-catalogue.md";

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

/** One input as the table shows it: its label, `(optional)` when it may be left out. */
function inputText(def: NodeDefinition): string {
  const parts = def.inputs.map((i) => {
    const optional = i.kind === "anchor" ? i.optional : i.optional || i.default !== undefined;
    return `${i.label}${i.kind === "anchor" ? " ⟵" : ""}${optional ? "" : "*"}`;
  });
  return parts.join(", ") || "—";
}

/**
 * The node catalogue as Markdown, made from the node registry and the Flowise mappings: every node
 * by category with its inputs (⟵ a connection, * required), its credential kinds, and the Flowise
 * node types that import onto it; then the Flowise types refused by name. Hand-written notes per
 * node are in docs/nodes.md.
 */
export function nodeCatalogueMarkdown(): string {
  const flowiseOnto = new Map<string, string[]>();
  for (const m of flowiseMappings) flowiseOnto.set(m.type, [...(flowiseOnto.get(m.type) ?? []), m.flowise]);
  const byCategory = new Map<string, NodeDefinition[]>();
  for (const d of nodeDefinitions) byCategory.set(d.category, [...(byCategory.get(d.category) ?? []), d]);
  const lines = [
    "# Node catalogue (generated)",
    "",
    "Made from the node registry (`lib/nodes/registry.ts`) and the Flowise mappings (`lib/flowise/mappings/`)",
    "by `npm run docs:nodes`; a test fails when it is stale. Inputs: ⟵ a connection from another node,",
    "\\* required. Notes on each node's behaviour: [nodes.md](nodes.md).",
    "",
    `${nodeDefinitions.length} nodes; ${flowiseMappings.length} Flowise node types import onto them.`,
    "",
  ];
  for (const [category, defs] of byCategory) {
    lines.push(
      `## ${category}`,
      "",
      "| node | type | inputs | credentials | imports Flowise |",
      "|---|---|---|---|---|",
    );
    for (const d of defs) {
      const creds = paramInputs(d)
        .flatMap((p) => (p.type === "credential" ? (p.credentialTypes ?? []) : []))
        .map((c) => `\`${c}\``);
      const flowise = (flowiseOnto.get(d.name) ?? []).map((f) => `\`${f}\``);
      lines.push(
        `| ${cell(d.label)} | \`${d.name}\` | ${cell(inputText(d))} | ${creds.join(", ") || "—"} | ${flowise.join(", ") || "—"} |`,
      );
    }
    lines.push("");
  }
  lines.push("## Flowise node types refused by name", "", "| Flowise type | why |", "|---|---|");
  for (const [type, why] of Object.entries({ ...REFUSED_FLOWISE_TYPES, ...NO_EQUIVALENT_FLOWISE_TYPES }))
    lines.push(`| \`${type}\` | ${cell(why)} |`);
  lines.push("");
  return lines.join("\n");
}
