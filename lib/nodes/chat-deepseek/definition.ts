import { hostedChatDefinition } from "../shared/hosted-chat";

export const chatDeepseekDefinition = hostedChatDefinition({
  name: "chatDeepseek",
  label: "DeepSeek Chat Model",
  description: "A DeepSeek chat model (deepseek-chat, or deepseek-reasoner for reasoning).",
  credentialType: "deepseek",
  defaultModel: "deepseek-chat",
  models: ["deepseek-chat", "deepseek-reasoner"],
});
