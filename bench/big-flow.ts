// The 300-node flow of the editor benchmark (bench/editor.ts) and its e2e check (e2e/big-flow.spec.ts):
// 60 copies of the product-search agent wiring (5 nodes, 5 edges each) in a grid.

export const BIG_FLOW_GROUPS = 60;

/** 60 copies of the product-search agent wiring, in a grid; node ids end in `_<group>`. */
export function bigFlowGraph(groups = BIG_FLOW_GROUPS) {
  const nodes: { id: string; type: string; position: { x: number; y: number }; data: { inputs: object } }[] = [];
  const edges: { id: string; source: string; sourceHandle: string; target: string; targetHandle: string }[] = [];
  const h = (id: string, name: string, dir: "in" | "out") => `${id}:${dir}:${name}`;
  const edge = (s: string, so: string, t: string, ti: string) =>
    edges.push({
      id: `${h(s, so, "out")}->${h(t, ti, "in")}`,
      source: s,
      sourceHandle: h(s, so, "out"),
      target: t,
      targetHandle: h(t, ti, "in"),
    });
  for (let g = 0; g < groups; g++) {
    const x = (g % 6) * 1600;
    const y = Math.floor(g / 6) * 900;
    const id = (t: string) => `${t}_${g}`;
    const node = (type: string, dx: number, dy: number, inputs: object = {}) =>
      nodes.push({ id: id(type), type, position: { x: x + dx, y: y + dy }, data: { inputs } });
    node("chatOpenAICompatible", 0, 0, { temperature: 0 });
    node("openApiChain", 320, 0, { specUrl: "https://shop.example.com/openapi.yaml" });
    node("chainTool", 640, 0, { name: `product_search_${g}`, description: "Finds products." });
    node("bufferMemory", 640, 420, { windowSize: 10 });
    node("toolAgent", 960, 100);
    edge(id("chatOpenAICompatible"), "chatModel", id("openApiChain"), "model");
    edge(id("openApiChain"), "chain", id("chainTool"), "chain");
    edge(id("chainTool"), "tool", id("toolAgent"), "tools");
    edge(id("bufferMemory"), "memory", id("toolAgent"), "memory");
    edge(id("chatOpenAICompatible"), "chatModel", id("toolAgent"), "model");
  }
  return { nodes, edges };
}
