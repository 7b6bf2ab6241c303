import { assertCredentialHost } from "../../security/credential-hosts";
import type { RuntimeOf } from "../define";
import { modelCallerOf, requesterOf } from "../shared/openai-connection";
import { bedrockEndpoint, createBedrockClient } from "./bedrock-client";
import { BedrockChat } from "./bedrock-chat";
import type { awsChatBedrockDefinition } from "./definition";

/**
 * Builds a Bedrock chat model from an "awsBedrock" credential (access key id, secret, region,
 * session token?, baseURL?). The signed calls go only to the credential's host (its baseURL's, or
 * bedrock-runtime.<region>.amazonaws.com), through the guarded model fetch.
 */
export const buildAwsChatBedrock: RuntimeOf<typeof awsChatBedrockDefinition> = async ({
  params,
  ctx,
  label,
  nodeId,
}) => {
  const requester = requesterOf({ label, nodeId });
  const caller = modelCallerOf("Chat model", { label, nodeId });
  const cred = await ctx.resolveCredential(params.credential);
  const endpoint = bedrockEndpoint(cred);
  const allowedHosts = assertCredentialHost(cred, endpoint, requester);
  const send = ctx.modelFetch?.({ requester, caller, allowedHosts }) ?? fetch;
  return new BedrockChat({
    model: params.model,
    temperature: params.temperature,
    maxTokens: params.maxTokens,
    topP: params.topP,
    streaming: params.streaming,
    client: createBedrockClient(cred, send, requester),
    host: new URL(endpoint).host,
    requester,
    caller,
  });
};
