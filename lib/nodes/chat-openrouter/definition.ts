import { hostedChatDefinition } from "../shared/hosted-chat";

export const chatOpenRouterDefinition = hostedChatDefinition({
  name: "chatOpenRouter",
  label: "OpenRouter Chat Model",
  description: "Any model OpenRouter routes to, by its provider/model name, with one OpenRouter key.",
  credentialType: "openRouter",
  defaultModel: "openai/gpt-4o-mini",
  models: [
    "openai/gpt-4o-mini",
    "anthropic/claude-sonnet-4.5",
    "google/gemini-2.5-flash",
    "meta-llama/llama-3.3-70b-instruct",
    "deepseek/deepseek-chat",
  ],
});
