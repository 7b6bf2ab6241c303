import { anchorInputs, ENDING_TYPES, T, type NodeDefinition } from "@/common/nodes/types";

/**
 * The definitions an agentflow's palette offers, from every definition the server has: its steps,
 * and the nodes that feed their anchors (chat models, tools, retrievers and stores) with what those
 * need in turn (embeddings, loaders, splitters). A chatflow's chains and agents (whatever ends a
 * chatflow) stay out, and so does a node that then has nothing to connect to a required anchor
 * (a Chain Tool without chains). Pure, for the studio's page and its tests.
 */
export function agentflowPalette(definitions: readonly NodeDefinition[]): NodeDefinition[] {
  const picked = new Set(definitions.filter((d) => d.capabilities?.agentflow));
  const candidates = definitions.filter((d) => !d.outputs.some((o) => o.types.some((t) => ENDING_TYPES.includes(t))));
  const todo = [...picked];
  while (todo.length) {
    for (const anchor of anchorInputs(todo.pop()!)) {
      for (const d of candidates) {
        if (picked.has(d) || !d.outputs.some((o) => o.types.some((t) => t !== T.flow && anchor.accepts.includes(t))))
          continue;
        picked.add(d);
        todo.push(d);
      }
    }
  }
  pruneUnfed(picked);
  // The steps first: they are what an agentflow is made of.
  const steps = definitions.filter((d) => d.capabilities?.agentflow);
  return [...steps, ...definitions.filter((d) => picked.has(d) && !d.capabilities?.agentflow)];
}

/** Drops the nodes (not steps) a required anchor of which nothing picked can feed, until none is left. */
function pruneUnfed(picked: Set<NodeDefinition>): void {
  for (let changed = true; changed; ) {
    changed = false;
    const fed = new Set([...picked].flatMap((d) => d.outputs.flatMap((o) => o.types)));
    for (const d of picked) {
      if (d.capabilities?.agentflow) continue;
      if (anchorInputs(d).some((a) => !a.optional && !a.accepts.some((t) => fed.has(t)))) {
        picked.delete(d);
        changed = true;
      }
    }
  }
}
