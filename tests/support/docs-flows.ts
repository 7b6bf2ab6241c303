import type { Graph } from "@/common/schemas/graph";
import { readExampleFlows } from "../../lib/services/examples";

/** Graph builders and sample files for the upsert and retrieval tests. */

const node = (id: string, type: string, inputs: Record<string, unknown> = {}, label?: string) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs, ...(label ? { label } : {}) },
});
const edge = (source: string, output: string, target: string, input: string) => ({
  id: `${source}-${target}-${input}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:${input}`,
});

const LOADERS = ["textLoader", "pdfLoader", "csvLoader", "docxLoader", "jsonLoader"] as const;

/**
 * Every loader → splitter → a vector store (when `embeddingsUrl` is given) and a keyword store, both
 * feeding one QA chain (hybrid retrieval).
 */
export function multiStoreGraph(opts: { chatUrl: string; embeddingsUrl?: string; chunkSize?: number }): Graph {
  const nodes = [
    node("splitter", "recursiveTextSplitter", { chunkSize: opts.chunkSize ?? 80, chunkOverlap: 0 }),
    node("textLoader", "textFileLoader"),
    node("pdfLoader", "pdfLoader"),
    node("csvLoader", "csvLoader"),
    node("docxLoader", "docxLoader"),
    node("jsonLoader", "jsonLoader", { pointer: "/faq/*/answer" }),
    node("keywordStore", "keywordStore", { topK: 3 }, "Keyword Store"),
    node("chatModel", "chatOpenAICompatible", { baseURL: opts.chatUrl, temperature: 0 }),
    node("qa", "conversationalRetrievalQAChain"),
  ];
  const edges = [
    ...LOADERS.map((l) => edge("splitter", "textSplitter", l, "textSplitter")),
    ...LOADERS.map((l) => edge(l, "document", "keywordStore", "document")),
    edge("keywordStore", "retriever", "qa", "retriever"),
    edge("chatModel", "chatModel", "qa", "model"),
  ];
  if (opts.embeddingsUrl) {
    nodes.push(
      node("embeddings", "openAIEmbeddings", { baseURL: opts.embeddingsUrl }),
      node("vectorStore", "pgvectorStore", { topK: 3 }, "Vector Store"),
    );
    edges.push(
      ...LOADERS.map((l) => edge(l, "document", "vectorStore", "document")),
      edge("embeddings", "embeddings", "vectorStore", "embeddings"),
      edge("vectorStore", "retriever", "qa", "retriever"),
    );
  }
  return { nodes, edges } as Graph;
}

/** An example flow from flows/ (docs-qa*.json). */
export function docsExample(file: "docs-qa.json" | "docs-qa-keyword.json") {
  const example = readExampleFlows().find((f) => f.file === file);
  if (!example) throw new Error(`flows/${file} is missing`);
  return {
    name: example.name,
    graph: structuredClone(example.graph) as Graph,
    overrideAllowList: example.overrideAllowList,
  };
}

/** With chunkSize 80: three chunks (the heading joins the first paragraph). */
export const REFUNDS_MD = [
  "# Refunds",
  "Refunds are paid within 14 days of the return.",
  "Refunds go back to the original payment card.",
  "Exchanges are free within 30 days of delivery.",
].join("\n\n");

export const FAQ_CSV =
  "question,answer\nWhat is the warranty?,Two years on every laptop.\nDo you ship abroad?,Yes: to the EU and the UK.\n";

export const SHIPPING_LINES = ["Shipping policy", "Orders leave our Leeds warehouse in 2 days."];
