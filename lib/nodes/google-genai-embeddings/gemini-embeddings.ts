import { type EmbedContentConfig, GoogleGenAI } from "@google/genai";
import { Embeddings } from "@langchain/core/embeddings";
import { AppError } from "@/common/errors";
import { callerName, type ModelCaller, type ModelFailureDetails } from "../../security/model-failure";

export interface GeminiEmbeddingsFields {
  model: string;
  taskType?: string;
  outputDimensionality?: number;
  stripNewLines: boolean;
  batchSize: number;
  apiKey: string;
  /** Without the API version, e.g. https://generativelanguage.googleapis.com. */
  baseUrl: string;
  /** The guarded model fetch: the outbound policy, the credential's host, MODEL_TIMEOUT_MS. */
  fetch?: typeof fetch;
  timeoutMs: number;
  caller: ModelCaller;
}

/**
 * Gemini embeddings over Google's official client (@google/genai), which calls
 * `models/{model}:batchEmbedContents` with one request per text; texts go in batches of at most
 * `batchSize` (Google takes 100), one after another, through the guarded model fetch, one attempt.
 */
export class GeminiEmbeddings extends Embeddings {
  private readonly fields: GeminiEmbeddingsFields;
  private readonly client: GoogleGenAI;

  constructor(fields: GeminiEmbeddingsFields) {
    super({ maxRetries: 0 });
    this.fields = fields;
    this.client = new GoogleGenAI({
      apiKey: fields.apiKey,
      httpOptions: {
        baseUrl: fields.baseUrl,
        timeout: fields.timeoutMs,
        retryOptions: { attempts: 1 },
        ...(fields.fetch ? { fetch: fields.fetch } : {}),
      },
    });
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.fields.batchSize)
      out.push(...(await this.embedBatch(texts.slice(i, i + this.fields.batchSize))));
    return out;
  }

  async embedQuery(text: string): Promise<number[]> {
    return (await this.embedBatch([text]))[0];
  }

  private async embedBatch(texts: string[]): Promise<number[][]> {
    const f = this.fields;
    const config: EmbedContentConfig = {
      ...(f.taskType && f.taskType !== "TASK_TYPE_UNSPECIFIED" ? { taskType: f.taskType } : {}),
      ...(f.outputDimensionality ? { outputDimensionality: f.outputDimensionality } : {}),
    };
    // An empty text is refused by Google: a space embeds as "nothing" instead.
    const contents = texts.map((t) => (f.stripNewLines ? t.replace(/\n/g, " ") : t) || " ");
    let embeddings: { values?: number[] }[] | undefined;
    try {
      ({ embeddings } = await this.client.models.embedContent({ model: f.model, contents, config }));
    } catch (err) {
      throw this.failure(err);
    }
    if (embeddings?.length !== texts.length || embeddings.some((e) => !e.values?.length))
      throw this.error(`answered ${embeddings?.length ?? 0} vectors for ${texts.length} texts`);
    return embeddings.map((e) => e.values as number[]);
  }

  private failure(err: unknown): unknown {
    for (let cur: unknown = err, depth = 0; cur && depth < 6; cur = (cur as { cause?: unknown }).cause, depth += 1)
      if (cur instanceof AppError) return cur;
    const status = (err as { status?: unknown })?.status;
    if (typeof status !== "number") return err;
    const said = providerMessage(err instanceof Error ? err.message : "");
    return this.error(`failed: the provider answered HTTP ${status}${said ? `: ${said.slice(0, 300)}` : ""}`, status);
  }

  private error(what: string, status?: number): AppError {
    const { caller } = this.fields;
    const host = new URL(this.fields.baseUrl).host;
    const details: ModelFailureDetails = {
      ...(caller.node ? { node: caller.node } : {}),
      kind: caller.kind,
      host,
      reason: status === undefined ? "failed" : "http_error",
      ...(status === undefined ? {} : { status }),
    };
    return new AppError("upstream_error", `${callerName(caller)} ${what} (${host}).`, { details });
  }
}

/** Google's error body (`{"error":{"message":…}}`, which the client puts in its message) or the text. */
function providerMessage(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === "string") return parsed.error.message;
  } catch {
    // not JSON
  }
  return text.trim();
}
