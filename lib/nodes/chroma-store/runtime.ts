import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText } from "../../security/credential-hosts";
import { chromaCollection } from "../../vector/remote/chroma";
import type { RuntimeOf } from "../define";
import { jsonObject, operatorHostCheck, remoteStoreRetriever } from "../shared/store";
import { requesterOf } from "../shared/openai-connection";
import type { chromaStoreDefinition } from "./definition";

/**
 * The Chroma store: a StoreRetriever whose vectors live in a Chroma collection. Chroma's client sends
 * its own requests (it takes no fetch), so the server's host passes the operator's outbound rules
 * before the first request, and the credential's token goes only to its base URL's host.
 */
export const buildChromaStore: RuntimeOf<typeof chromaStoreDefinition> = async ({
  params,
  inputs,
  ctx,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const cred = params.credential ? await ctx.resolveCredential(params.credential) : undefined;
  const target = params.url?.trim() || (cred ? credentialText(cred, "baseURL") || "https://api.trychroma.com" : "");
  if (!target)
    throw new AppError("invalid_graph", `${requester}: set the Chroma server URL (or a credential that names it).`);
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new AppError("invalid_graph", `${requester}: "${target}" is not a valid URL.`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || (url.pathname !== "/" && url.pathname !== ""))
    throw new AppError("invalid_graph", `${requester}: the Chroma server URL must be http(s) without a path.`);
  if (cred) assertCredentialHost(cred, url.href, requester);
  const apiKey = cred ? credentialText(cred, "apiKey") : "";
  const filter = jsonObject(params.filter);
  const remote = chromaCollection({
    url,
    ...(apiKey ? { apiKey } : {}),
    tenant: params.tenant?.trim() || (cred && credentialText(cred, "tenant")) || "default_tenant",
    database: params.database?.trim() || (cred && credentialText(cred, "database")) || "default_database",
    collection: params.collection,
    filter,
    requester,
    checkHost: operatorHostCheck(requester),
  });
  return remoteStoreRetriever({ nodeId, label, params, inputs, ctx }, remote);
};
