import { clearOfGroupForms } from "@/browser/canvas/agentflow";
import type { createEditorStore } from "@/browser/canvas/editor-store";
import { graphToEditor } from "@/browser/canvas/graph-convert";
import { graphSchema, type Graph } from "@/common/schemas/graph";

/** A saved graph, or an empty one and a message saying why it could not be read. */
function readGraph(raw: unknown): { graph: Graph; error?: string } {
  const parsed = graphSchema.safeParse(raw);
  if (parsed.success) return { graph: parsed.data };
  return {
    graph: { nodes: [], edges: [] },
    error: `The saved graph could not be read (${parsed.error.issues[0]?.message}); starting empty.`,
  };
}

/** Loads a saved graph into the editor store as saved (not dirty); answers its viewport and any read error. */
export function loadInto(store: ReturnType<typeof createEditorStore>, raw: unknown) {
  const { graph, error } = readGraph(raw);
  const { nodes, edges, notes } = graphToEditor(graph);
  store.load(clearOfGroupForms(nodes), edges, true, notes);
  return { viewport: graph.viewport, error };
}
