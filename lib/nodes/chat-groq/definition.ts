import { hostedChatDefinition } from "../shared/hosted-chat";

export const chatGroqDefinition = hostedChatDefinition({
  name: "chatGroq",
  label: "Groq Chat Model",
  description: "A chat model served by Groq (GroqCloud), OpenAI-compatible: streaming and tool calling.",
  credentialType: "groq",
  defaultModel: "llama-3.3-70b-versatile",
  models: [
    "llama-3.3-70b-versatile",
    "llama-3.1-8b-instant",
    "openai/gpt-oss-120b",
    "openai/gpt-oss-20b",
    "qwen/qwen3-32b",
  ],
});
