import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import { describe, expect, it } from "vitest";
import { testContext } from "../../flow/__fixtures__/graphs";
import type { DocumentSource, StoreDocument } from "../../vector/types";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import { memoryVectorStore } from ".";
import { MAX_MEMORY_CHUNKS } from "./runtime";

/** Two-dimensional embeddings: how often a text says "refund" and "shipping". */
const embeddings: EmbeddingsInterface & { calls: number } = {
  calls: 0,
  embedDocuments(texts: string[]) {
    this.calls += 1;
    return Promise.resolve(texts.map(vectorOf));
  },
  embedQuery(text: string) {
    return Promise.resolve(vectorOf(text));
  },
};
function vectorOf(text: string): number[] {
  const t = text.toLowerCase();
  return [(t.match(/refund/g) ?? []).length + 0.01, (t.match(/shipping/g) ?? []).length + 0.01];
}

const source = (docs: StoreDocument[]): DocumentSource => ({
  kind: "documentSource",
  label: "Docs",
  accepts: [],
  load: () => Promise.resolve(docs),
});
const doc = (pageContent: string, src: string): StoreDocument => ({ pageContent, metadata: { source: src } });

const build = (sources: DocumentSource[], topK = 1) =>
  memoryVectorStore.runtime({
    nodeId: "mem",
    label: "Memory Store",
    params: paramsSchemaFor(getDefinition("memoryVectorStore")!).parse({ topK }),
    inputs: { document: sources, embeddings },
    ctx: testContext(),
  }) as Promise<BaseRetrieverInterface>;

describe("In-Memory Vector Store node", () => {
  it("embeds the connected documents at build time and finds the nearest without any upsert", async () => {
    const before = embeddings.calls;
    const retriever = await build([
      source([doc("Refunds: a refund is paid in 14 days.", "refunds.md"), doc("   ", "blank.md")]),
      source([doc("Shipping takes 3 days; shipping is free over 50.", "shipping.md")]),
    ]);
    expect(embeddings.calls).toBe(before + 1);
    const [found] = await retriever.invoke("how long does shipping take?");
    expect(found.metadata.source).toBe("shipping.md");
    const refunds = await retriever.invoke("refund period");
    expect(refunds.map((d) => d.metadata.source)).toEqual(["refunds.md"]);
  });

  it("refuses more chunks than an in-memory store should hold, pointing at the pgvector store", async () => {
    const many = Array.from({ length: MAX_MEMORY_CHUNKS + 1 }, (_, i) => doc(`chunk ${i}`, "big.txt"));
    await expect(build([source(many)])).rejects.toMatchObject({
      code: "invalid_graph",
      message: expect.stringContaining("Memory Store (node mem)"),
    });
  });
});
