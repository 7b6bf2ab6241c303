import { BaseRetriever } from "@langchain/core/retrievers";
import { Document } from "@langchain/core/documents";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { AppError } from "@/common/errors";
import type { BuildContext } from "../flow/types";
import type {
  ChunkCollection,
  CleanupMode,
  DocumentSource,
  DocumentStoreAccess,
  PreparedUpsert,
  RemoteIndex,
  ScoredDocument,
  UpsertFile,
} from "./types";

/**
 * What a vector store or keyword store node builds: a LangChain retriever (for the QA chain and the
 * Retriever Tool) that the upsert service can also fill and the studio can count and clear.
 */

export interface StoreNodeOptions {
  storeType: "vector" | "keyword";
  nodeId: string;
  label: string;
  ctx: BuildContext;
  sources: DocumentSource[];
  topK: number;
  cleanup: CleanupMode;
  scoreThreshold?: number;
  embeddings?: EmbeddingsInterface;
  /** A remote vector index holding this node's vectors (Pinecone, Qdrant, Chroma); absent: pgvector. */
  remote?: RemoteIndex;
}

export class StoreRetriever extends BaseRetriever {
  lc_namespace = ["switchyard", "retrievers"];
  readonly kind = "documentStore";

  constructor(readonly opts: StoreNodeOptions) {
    super({});
  }

  get nodeId(): string {
    return this.opts.nodeId;
  }

  get collection(): ChunkCollection {
    return { chatflowId: this.opts.ctx.chatflowId, nodeId: this.opts.nodeId };
  }

  private get store(): DocumentStoreAccess {
    const store = this.opts.ctx.documents;
    if (!store)
      throw new AppError("not_configured", `${this.opts.label}: no document store is available in this process.`);
    return store;
  }

  /** Loads the connected loaders (uploads replace saved files) and prepares the write; no DB writes. */
  async prepare(files: readonly UpsertFile[]): Promise<PreparedUpsert> {
    const documents = (await Promise.all(this.opts.sources.map((s) => s.load(files)))).flat();
    const embeddings = this.opts.embeddings;
    return {
      collection: this.collection,
      documents,
      cleanup: this.opts.cleanup,
      ...(embeddings ? { embed: (texts: string[]) => embeddings.embedDocuments(texts) } : {}),
      ...(this.opts.remote ? { remote: this.opts.remote } : {}),
    };
  }

  /** Chunks stored by this node. */
  count(): Promise<number> {
    return this.store.count(this.collection);
  }

  /** Deletes every chunk of this node; returns how many. */
  clear(): Promise<number> {
    return this.store.clear(this.collection, this.opts.remote);
  }

  /** The top-k chunks for a query, best first, with their scores. */
  async search(query: string): Promise<ScoredDocument[]> {
    const { topK: k, embeddings, scoreThreshold } = this.opts;
    if (this.opts.storeType === "keyword") return this.store.keywordSearch({ collection: this.collection, query, k });
    if (!embeddings) throw new AppError("invalid_graph", `${this.opts.label}: connect an embeddings node.`);
    const vector = await embeddings.embedQuery(query);
    const { remote } = this.opts;
    if (remote) return this.store.remoteSearch({ collection: this.collection, remote, vector, k, scoreThreshold });
    return this.store.similaritySearch({ collection: this.collection, vector, k, scoreThreshold });
  }

  async _getRelevantDocuments(query: string): Promise<Document[]> {
    const found = await this.search(query);
    return found.map((d) => new Document({ pageContent: d.pageContent, metadata: d.metadata, id: d.id }));
  }
}

/** Type guard for a built store node. */
export function isStoreRetriever(x: unknown): x is StoreRetriever {
  return x instanceof StoreRetriever;
}
