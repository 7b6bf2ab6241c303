import { hostedChatDefinition } from "../shared/hosted-chat";

export const chatMistralAIDefinition = hostedChatDefinition({
  name: "chatMistralAI",
  label: "Mistral AI Chat Model",
  description: "A Mistral AI chat model (La Plateforme): streaming and tool calling.",
  credentialType: "mistralAI",
  defaultModel: "mistral-small-latest",
  models: [
    "mistral-large-latest",
    "mistral-medium-latest",
    "mistral-small-latest",
    "codestral-latest",
    "ministral-8b-latest",
    "open-mistral-nemo",
  ],
});
