import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText } from "../../security/credential-hosts";
import { checkOperatorHost } from "../../security/outbound-policy";
import { elasticsearchIndex } from "../../vector/remote/elasticsearch";
import { StoreRetriever } from "../../vector/store-retriever";
import { isDocumentSource } from "../../vector/types";
import type { RuntimeOf } from "../define";
import { requesterOf } from "../shared/openai-connection";
import type { elasticsearchStoreDefinition } from "./definition";

const effectivePort = (url: URL) => (url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80);

/**
 * The Elasticsearch store: a StoreRetriever whose vectors live in an Elasticsearch index. The
 * official client sends its own requests, so the cluster's host (the credential's base URL, the only
 * host its key goes to) passes the operator's outbound rules before the first request.
 */
export const buildElasticsearchStore: RuntimeOf<typeof elasticsearchStoreDefinition> = async ({
  params,
  inputs,
  ctx,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const cred = await ctx.resolveCredential(params.credential);
  const target = credentialText(cred, "baseURL");
  if (!target) throw new AppError("not_configured", `${requester}: credential "${cred.name}" names no cluster URL.`);
  assertCredentialHost(cred, target, requester);
  const url = new URL(target);
  const apiKey = credentialText(cred, "apiKey");
  const filter =
    params.filter && typeof params.filter === "object" && !Array.isArray(params.filter)
      ? (params.filter as Record<string, unknown>)
      : undefined;
  const remote = elasticsearchIndex({
    url,
    ...(apiKey ? { apiKey } : {}),
    index: params.index,
    filter,
    similarity: params.similarity,
    requester,
    async checkHost(u) {
      try {
        await checkOperatorHost(u.hostname.replace(/^\[|\]$/g, ""), effectivePort(u));
      } catch (err) {
        if (err instanceof AppError) throw new AppError(err.code, `${requester}: ${err.message}`, { cause: err });
        throw err;
      }
    },
  });
  return new StoreRetriever({
    storeType: "vector",
    nodeId,
    label,
    ctx,
    sources: inputs.document.filter(isDocumentSource),
    embeddings: inputs.embeddings,
    topK: params.topK,
    scoreThreshold: params.scoreThreshold,
    cleanup: params.cleanup,
    remote,
  });
};
