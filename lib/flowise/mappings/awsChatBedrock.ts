import { defineMapping, ignore, oneOf, param, toBoolean, toInteger, toNumber, toText } from "../rules";

/** Flowise "AWSChatBedrock" → our AWS Bedrock chat model (keys and region in an AWS Bedrock credential). */
export const awsChatBedrock = defineMapping({
  flowise: "awsChatBedrock",
  type: "awsChatBedrock",
  credential: "credential",
  inputs: {
    model: param("model", toText),
    // Flowise's override of the listed model: listed after model, so it wins when set.
    customModel: param("model", toText),
    temperature: param("temperature", toNumber),
    max_tokens_to_sample: param("maxTokens", toInteger),
    streaming: param("streaming", toBoolean),
    allowImageUploads: param("allowImageUploads", toBoolean),
    region: ignore(
      "the region is the AWS Bedrock credential's (it decides the host the keys are sent to)",
      undefined,
      "the node's region is not carried over: the AWS Bedrock credential's region is used",
    ),
    latencyOptimized: ignore("latency-optimized inference is not asked for", oneOf(false, "false")),
    cache: ignore(
      "a model cache has no equivalent",
      undefined,
      "the cache is not carried over: every call asks the model",
    ),
  },
});
