import { AppError } from "@/common/errors";
import { assertCredentialHost, credentialText, PROVIDER_DEFAULT_URL } from "../../security/credential-hosts";
import { pineconeIndex } from "../../vector/remote/pinecone";
import type { RuntimeOf } from "../define";
import { jsonObject, remoteStoreRetriever } from "../shared/store";
import { requesterOf } from "../shared/openai-connection";
import type { pineconeStoreDefinition } from "./definition";

/**
 * The Pinecone store: a StoreRetriever whose vectors live in the index. The key goes to the
 * credential's control plane (api.pinecone.io, or its base URL) and to the index host that control
 * plane names, which must be a pinecone.io host for Pinecone's own (or the same host for a local one);
 * every request passes the outbound guard too.
 */
export const buildPineconeStore: RuntimeOf<typeof pineconeStoreDefinition> = async ({
  params,
  inputs,
  ctx,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const cred = await ctx.resolveCredential(params.credential);
  const apiKey = credentialText(cred, "apiKey");
  if (!apiKey) throw new AppError("not_configured", `${requester}: credential "${cred.name}" has no API key.`);
  const controllerUrl = credentialText(cred, "baseURL") || PROVIDER_DEFAULT_URL.pinecone;
  assertCredentialHost(cred, controllerUrl, requester);
  const controller = new URL(controllerUrl);
  const allowed = new Set([controller.host]);
  const pinned = ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    if (!allowed.has(url.host))
      return Promise.reject(
        new AppError("forbidden", `${requester}: the Pinecone key may not be sent to ${url.host}.`),
      );
    return ctx.fetch(input, init);
  }) as typeof fetch;
  const filter = jsonObject(params.metadataFilter);
  const remote = pineconeIndex({
    apiKey,
    controllerUrl: controller.href.replace(/\/$/, ""),
    indexName: params.indexName,
    namespace: params.namespace || undefined,
    filter,
    textKey: params.textKey,
    fetch: pinned,
    requester,
    allowHost(url) {
      const pineconeCloud = controller.hostname === "api.pinecone.io";
      const ok = pineconeCloud ? url.hostname.endsWith(".pinecone.io") : url.host === controller.host;
      if (!ok)
        throw new AppError(
          "forbidden",
          `${requester}: Pinecone named ${url.host} as the index host; the key is only sent to ${pineconeCloud ? "pinecone.io hosts" : controller.host}.`,
        );
      allowed.add(url.host);
    },
  });
  return remoteStoreRetriever({ nodeId, label, params, inputs, ctx }, remote);
};
