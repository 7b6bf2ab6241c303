import { defineMapping, ignore, oneOf } from "../rules";
import { hostedChatInputs } from "./hostedChatInputs";

/**
 * Flowise "Azure ChatOpenAI" → our Azure OpenAI chat model. Flowise keeps the instance, deployment and
 * API version in its credential, which stays in Flowise: choose an Azure OpenAI credential (endpoint,
 * key, version) and, when the deployment is not named after the model, the node's deployment name.
 */
export const azureChatOpenAI = defineMapping({
  flowise: "azureChatOpenAI",
  type: "azureChatOpenAI",
  credential: "credential",
  inputs: {
    ...hostedChatInputs,
    basepath: ignore(
      "a base path goes in the Azure OpenAI credential's endpoint",
      undefined,
      "the base path is not carried over: set the endpoint in the Azure OpenAI credential",
    ),
    imageResolution: ignore(
      "only the provider's default image resolution is supported",
      oneOf("low", "auto", "high"),
      "the image resolution is not carried over: images are sent at the provider's default",
    ),
    reasoning: ignore("reasoning options have no equivalent", oneOf(false, "false")),
  },
});
