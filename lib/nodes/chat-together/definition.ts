import { hostedChatDefinition } from "../shared/hosted-chat";

export const chatTogetherAIDefinition = hostedChatDefinition({
  name: "chatTogetherAI",
  label: "Together AI Chat Model",
  description: "An open model served by Together AI, OpenAI-compatible.",
  credentialType: "togetherAI",
  defaultModel: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
  models: [
    "meta-llama/Llama-3.3-70B-Instruct-Turbo",
    "deepseek-ai/DeepSeek-V3",
    "Qwen/Qwen2.5-72B-Instruct-Turbo",
    "mistralai/Mixtral-8x7B-Instruct-v0.1",
  ],
});
