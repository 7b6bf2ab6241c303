import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText } from "../../security/credential-hosts";
import { elasticsearchIndex } from "../../vector/remote/elasticsearch";
import type { RuntimeOf } from "../define";
import { jsonObject, operatorHostCheck, remoteStoreRetriever } from "../shared/store";
import { requesterOf } from "../shared/openai-connection";
import type { elasticsearchStoreDefinition } from "./definition";

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
  const filter = jsonObject(params.filter);
  const remote = elasticsearchIndex({
    url,
    ...(apiKey ? { apiKey } : {}),
    index: params.index,
    filter,
    similarity: params.similarity,
    requester,
    checkHost: operatorHostCheck(requester),
  });
  return remoteStoreRetriever({ nodeId, label, params, inputs, ctx }, remote);
};
