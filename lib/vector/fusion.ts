import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { SourceDocument } from "../flow/types";

/**
 * Retrieval over one or several retrievers. Several (e.g. a vector store and a keyword store wired
 * into the same chain) are fused by reciprocal rank: a chunk found high by both wins, a chunk only
 * one of them finds still counts. Scores differ in scale between stores; ranks do not.
 */

const RRF_K = 60;

const keyOf = (d: SourceDocument) => `${String(d.metadata.source ?? "")}\u0000${d.pageContent}`;

/** Fuses ranked lists; returns at most `limit` documents, best first. */
export function reciprocalRankFusion(lists: SourceDocument[][], limit: number): SourceDocument[] {
  const scores = new Map<string, { doc: SourceDocument; score: number }>();
  for (const list of lists) {
    list.forEach((doc, rank) => {
      const key = keyOf(doc);
      const entry = scores.get(key) ?? { doc, score: 0 };
      entry.score += 1 / (RRF_K + rank + 1);
      scores.set(key, entry);
    });
  }
  return [...scores.values()]
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((e) => e.doc);
}

/** The documents for a query: one retriever's list, or the fusion of several. */
export async function retrieveDocuments(
  retrievers: BaseRetrieverInterface[],
  query: string,
  config?: RunnableConfig,
): Promise<SourceDocument[]> {
  const lists = await Promise.all(
    retrievers.map(async (r) =>
      (await r.invoke(query, config)).map((d) => ({ pageContent: d.pageContent, metadata: { ...d.metadata } })),
    ),
  );
  if (lists.length === 1) return lists[0];
  return reciprocalRankFusion(lists, Math.max(0, ...lists.map((l) => l.length)));
}

/** The documents as a context block for a prompt, each headed by its source. */
export function formatContext(docs: SourceDocument[]): string {
  return docs
    .map((d, i) => `[${i + 1}] (source: ${String(d.metadata.source ?? "unknown")})\n${d.pageContent}`)
    .join("\n\n");
}
