/**
 * Agentflow graphs written by hand, for tests and benches: a node with its inputs (at the origin:
 * the engine ignores positions) and an edge from an output handle to an input handle.
 */
export const node = (id: string, type: string, inputs: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs },
});

export const edge = (source: string, output: string, target: string, input = "input") => ({
  id: `${source}-${output}-${target}-${input}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:${input}`,
});
