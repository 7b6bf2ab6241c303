import { OpenAIEmbeddings } from "@langchain/openai";
import { defineNode } from "../define";
import { ollamaOpenAIUrl } from "../chat-ollama/runtime";
import { modelCallerOf, requesterOf, sdkBackstopTimeout } from "../shared/openai-connection";
import { ollamaEmbeddingsDefinition } from "./definition";

/** Ollama's OpenAI-compatible embeddings (/v1/embeddings); nothing secret is sent, the guard applies. */
export const ollamaEmbeddings = defineNode({
  definition: ollamaEmbeddingsDefinition,
  runtime: async ({ params, ctx, label, nodeId }) => {
    const requester = requesterOf({ label, nodeId });
    const fetch = ctx.modelFetch?.({ requester, caller: modelCallerOf("Embeddings model", { label, nodeId }) });
    return new OpenAIEmbeddings({
      model: params.model,
      apiKey: "ollama",
      timeout: sdkBackstopTimeout(ctx.env),
      configuration: { baseURL: ollamaOpenAIUrl(params.baseUrl, requester), ...(fetch ? { fetch } : {}) },
      batchSize: params.batchSize,
      maxRetries: 0,
    });
  },
});
