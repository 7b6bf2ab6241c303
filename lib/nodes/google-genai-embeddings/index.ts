import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import { defineNode } from "../define";
import { modelCallerOf, requesterOf, sdkBackstopTimeout } from "../shared/openai-connection";
import { googleGenerativeAiEmbeddingsDefinition } from "./definition";
import { GeminiEmbeddings } from "./gemini-embeddings";

/**
 * Gemini embeddings from a "googleGenerativeAI" credential ({ apiKey, baseURL? }): the key goes only
 * to the credential's host (its baseURL's, or generativelanguage.googleapis.com).
 */
export const googleGenerativeAiEmbeddings = defineNode({
  definition: googleGenerativeAiEmbeddingsDefinition,
  runtime: async ({ params, ctx, label, nodeId }) => {
    const requester = requesterOf({ label, nodeId });
    const caller = modelCallerOf("Embeddings model", { label, nodeId });
    const cred = await ctx.resolveCredential(params.credential);
    const apiKey = credentialText(cred, "apiKey");
    if (!apiKey) throw new AppError("not_configured", `${requester}: the chosen credential has no apiKey.`);
    const baseUrl = credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL.googleGenerativeAI;
    const allowedHosts = assertCredentialHost(cred, baseUrl, requester);
    return new GeminiEmbeddings({
      model: params.modelName,
      taskType: params.taskType,
      outputDimensionality: params.outputDimensionality,
      stripNewLines: params.stripNewLines,
      batchSize: params.batchSize,
      apiKey,
      baseUrl,
      fetch: ctx.modelFetch?.({ requester, caller, allowedHosts }),
      timeoutMs: sdkBackstopTimeout(ctx.env),
      caller,
    });
  },
});
