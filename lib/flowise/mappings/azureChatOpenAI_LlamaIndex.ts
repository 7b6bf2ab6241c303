import { defineMapping, ignore, param, toInteger, toNumber, toText } from "../rules";
import { llamaIndexNote } from "./llamaIndex";

/**
 * Flowise "AzureChatOpenAI" (LlamaIndex) → our Azure OpenAI chat model. As with the LangChain Azure
 * node, the endpoint, key and API version live in an Azure OpenAI credential chosen after the import;
 * the deployment defaults to the model name.
 */
export const azureChatOpenAI_LlamaIndex = defineMapping({
  flowise: "azureChatOpenAI_LlamaIndex",
  type: "azureChatOpenAI",
  credential: "credential",
  note: llamaIndexNote("AzureChatOpenAI", "Azure OpenAI Chat Model"),
  inputs: {
    modelName: param("model", toText),
    temperature: param("temperature", toNumber),
    maxTokens: param("maxTokens", toInteger),
    topP: param("topP", toNumber),
    timeout: param("timeout", toInteger),
    streaming: ignore("streaming is chosen per request (the prediction's `streaming`), not on the model"),
  },
  outputs: { azureChatOpenAI_LlamaIndex: "chatModel" },
});
