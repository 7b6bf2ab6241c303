import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText } from "../../security/credential-hosts";
import { qdrantCollection } from "../../vector/remote/qdrant";
import type { RuntimeOf } from "../define";
import { jsonObject, operatorHostCheck, remoteStoreRetriever } from "../shared/store";
import { requesterOf } from "../shared/openai-connection";
import type { qdrantStoreDefinition } from "./definition";

/**
 * The Qdrant store: a StoreRetriever whose vectors live in a Qdrant collection. Qdrant's client sends
 * its own requests (it takes no fetch), so the server's host passes the operator's outbound rules
 * before the first request (a private address only where OUTBOUND_ALLOW_HOSTS allows it), and the
 * credential's key goes only to its base URL's host.
 */
export const buildQdrantStore: RuntimeOf<typeof qdrantStoreDefinition> = async ({
  params,
  inputs,
  ctx,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const cred = params.credential ? await ctx.resolveCredential(params.credential) : undefined;
  const target = params.url?.trim() || (cred ? credentialText(cred, "baseURL") : "");
  if (!target)
    throw new AppError("invalid_graph", `${requester}: set the Qdrant server URL (or a credential that names it).`);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new AppError("invalid_graph", `${requester}: "${target}" is not a valid URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new AppError("invalid_graph", `${requester}: the Qdrant server URL must be http(s).`);
  const apiKey = cred ? credentialText(cred, "apiKey") : "";
  if (cred) assertCredentialHost(cred, url.href, requester);
  const filter = jsonObject(params.filter);
  const remote = qdrantCollection({
    url,
    ...(apiKey ? { apiKey } : {}),
    collection: params.collection,
    filter,
    distance: params.distance,
    contentKey: params.contentKey,
    metadataKey: params.metadataKey,
    requester,
    checkHost: operatorHostCheck(requester),
  });
  return remoteStoreRetriever({ nodeId, label, params, inputs, ctx }, remote);
};
