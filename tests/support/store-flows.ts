import type { Graph } from "@/common/schemas/graph";

/** The vector store tests' text: three sentences, one chunk each with the splitter below. */
export const HANDBOOK =
  "Parcels ship within two days.\n\nReturns are free for thirty days.\n\nSupport answers by email.";

const node = (id: string, type: string, inputs: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs },
});
const edge = (source: string, output: string, target: string, input: string) => ({
  id: `${source}-${target}-${input}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:${input}`,
});

/**
 * The flow every vector store test upserts and asks: a text (60-character chunks) into the store node
 * `storeType` with `storeInputs`, embeddings and a chat model on the scripted model at `modelUrl`, a
 * conversational retrieval QA chain answering from the store.
 */
export function storeQaGraph(
  modelUrl: string,
  storeType: string,
  storeInputs: Record<string, unknown>,
  text: string,
): Graph {
  return {
    nodes: [
      node("splitter", "recursiveTextSplitter", { chunkSize: 60, chunkOverlap: 0 }),
      node("text", "plainTextLoader", { text, sourceName: "handbook" }),
      node("embeddings", "openAIEmbeddings", { baseURL: modelUrl }),
      node("store", storeType, storeInputs),
      node("chatModel", "chatOpenAICompatible", { baseURL: modelUrl, temperature: 0 }),
      node("qa", "conversationalRetrievalQAChain"),
    ],
    edges: [
      edge("splitter", "textSplitter", "text", "textSplitter"),
      edge("text", "document", "store", "document"),
      edge("embeddings", "embeddings", "store", "embeddings"),
      edge("store", "retriever", "qa", "retriever"),
      edge("chatModel", "chatModel", "qa", "model"),
    ],
  } as Graph;
}
