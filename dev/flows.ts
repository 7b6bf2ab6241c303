import { readExampleFlows } from "../lib/services/examples";
import type { Graph } from "@/common/schemas/graph";

type ExampleFile = "product-search-agent.json" | "openapi-chain-only.json" | "conversation.json";

/** An example flow from flows/, with every OpenAPI chain pointed at a test server. */
export function exampleFlow(file: ExampleFile, opts: { productApiUrl?: string; allowImages?: boolean } = {}) {
  const example = readExampleFlows().find((f) => f.file === file);
  if (!example) throw new Error(`flows/${file} is missing`);
  const graph = structuredClone(example.graph) as Graph;
  for (const n of graph.nodes) {
    if (n.type === "openApiChain" && opts.productApiUrl) n.data.inputs.serverUrl = opts.productApiUrl;
    if (n.type === "chatOpenAICompatible" && opts.allowImages) n.data.inputs.allowImageUploads = true;
  }
  return { name: example.name, graph, overrideAllowList: example.overrideAllowList };
}
