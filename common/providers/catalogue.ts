/**
 * The model providers a credential can hold a key for: one row each, read by the credential schemas
 * (common/schemas/credential.ts), where a key may be sent (lib/security/credential-hosts.ts), the
 * studio's credential form and the hosted chat-model nodes. Adding a provider that speaks OpenAI's
 * Chat Completions: one row here and one node folder (see lib/nodes/chat-groq).
 */
export interface ProviderKind {
  /** Shown in the credential form's type list and on credential rows. */
  label: string;
  /** One line under the type list. */
  hint: string;
  /**
   * Where the key goes when the credential names no base URL; absent: the credential must name one.
   * `{field}` stands for one of the credential's fields (AWS's regional host: `{region}`).
   */
  defaultUrl?: string;
  /** What the form calls the secret it holds as `apiKey` ("API key" when absent). */
  keyLabel?: string;
  /** What a base URL looks like, for the form. */
  placeholder: string;
  /** Fields the credential holds beside the key and base URL (Azure's API version, Google's engine id). */
  fields?: readonly { name: string; label: string; placeholder?: string; optional?: boolean; secret?: boolean }[];
}

export const PROVIDER_KINDS = {
  openai: {
    label: "OpenAI-compatible",
    hint: "OpenAI, or any compatible server (Ollama, vLLM, LM Studio, LocalAI) by base URL.",
    defaultUrl: "https://api.openai.com/v1",
    placeholder: "http://127.0.0.1:11434/v1",
  },
  anthropic: {
    label: "Anthropic",
    hint: "An Anthropic API key.",
    defaultUrl: "https://api.anthropic.com",
    placeholder: "https://api.anthropic.com",
  },
  googleGenerativeAI: {
    label: "Google Gemini",
    hint: "A Google AI Studio (Generative Language API) key.",
    defaultUrl: "https://generativelanguage.googleapis.com",
    placeholder: "https://generativelanguage.googleapis.com",
  },
  azureOpenAI: {
    label: "Azure OpenAI",
    hint: "A key of an Azure OpenAI resource, its endpoint (https://<resource>.openai.azure.com) and API version.",
    placeholder: "https://my-resource.openai.azure.com",
    fields: [{ name: "apiVersion", label: "API version", placeholder: "2024-10-21", optional: true }],
  },
  mistralAI: {
    label: "Mistral AI",
    hint: "A Mistral AI (La Plateforme) API key.",
    defaultUrl: "https://api.mistral.ai/v1",
    placeholder: "https://api.mistral.ai/v1",
  },
  groq: {
    label: "Groq",
    hint: "A GroqCloud API key.",
    defaultUrl: "https://api.groq.com/openai/v1",
    placeholder: "https://api.groq.com/openai/v1",
  },
  deepseek: {
    label: "DeepSeek",
    hint: "A DeepSeek platform API key.",
    defaultUrl: "https://api.deepseek.com/v1",
    placeholder: "https://api.deepseek.com/v1",
  },
  openRouter: {
    label: "OpenRouter",
    hint: "An OpenRouter API key (one key for many providers' models).",
    defaultUrl: "https://openrouter.ai/api/v1",
    placeholder: "https://openrouter.ai/api/v1",
  },
  togetherAI: {
    label: "Together AI",
    hint: "A Together AI API key.",
    defaultUrl: "https://api.together.xyz/v1",
    placeholder: "https://api.together.xyz/v1",
  },
  awsBedrock: {
    label: "AWS Bedrock",
    hint: "An IAM access key allowed to call Bedrock (bedrock:InvokeModel), the secret as key, and the AWS region of the models.",
    defaultUrl: "https://bedrock-runtime.{region}.amazonaws.com",
    placeholder: "https://bedrock-runtime.us-east-1.amazonaws.com",
    keyLabel: "Secret access key",
    fields: [
      { name: "accessKeyId", label: "Access key ID", placeholder: "AKIAIOSFODNN7EXAMPLE" },
      { name: "region", label: "Region", placeholder: "us-east-1" },
      { name: "sessionToken", label: "Session token", optional: true, secret: true },
    ],
  },
  replicate: {
    label: "Replicate",
    hint: "A Replicate API token (r8_…).",
    defaultUrl: "https://api.replicate.com",
    placeholder: "https://api.replicate.com",
  },
  huggingFace: {
    label: "Hugging Face",
    hint: "A Hugging Face access token (hf_…); an Inference Endpoint by its URL as base URL.",
    defaultUrl: "https://router.huggingface.co",
    placeholder: "https://my-endpoint.endpoints.huggingface.cloud",
  },
  // Web search APIs (the search tool nodes).
  serpApi: {
    label: "SerpAPI",
    hint: "A SerpAPI key (Google results through serpapi.com).",
    defaultUrl: "https://serpapi.com",
    placeholder: "https://serpapi.com",
  },
  serper: {
    label: "Serper",
    hint: "A Serper.dev key (Google results).",
    defaultUrl: "https://google.serper.dev",
    placeholder: "https://google.serper.dev",
  },
  googleCustomSearch: {
    label: "Google Custom Search",
    hint: "A Google Custom Search JSON API key and the id (cx) of your Programmable Search Engine.",
    defaultUrl: "https://www.googleapis.com",
    placeholder: "https://www.googleapis.com",
    fields: [
      { name: "searchEngineId", label: "Search engine ID (cx)", placeholder: "017576662512468239146:omuauf_lfve" },
    ],
  },
  tavily: {
    label: "Tavily",
    hint: "A Tavily API key (search made for agents).",
    defaultUrl: "https://api.tavily.com",
    placeholder: "https://api.tavily.com",
  },
  braveSearch: {
    label: "Brave Search",
    hint: "A Brave Search API subscription token.",
    defaultUrl: "https://api.search.brave.com",
    placeholder: "https://api.search.brave.com",
  },
  // Vector stores.
  pinecone: {
    label: "Pinecone",
    hint: "A Pinecone API key (the index host is found from the index name).",
    defaultUrl: "https://api.pinecone.io",
    placeholder: "https://api.pinecone.io",
  },
  qdrant: {
    label: "Qdrant",
    hint: "A Qdrant API key and the server's URL (Qdrant Cloud's cluster URL, or your own server's).",
    placeholder: "https://xyz.eu-central.aws.cloud.qdrant.io:6333",
  },
  chroma: {
    label: "Chroma",
    hint: "A Chroma token (sent as x-chroma-token), with the tenant and database it opens (Chroma Cloud, or your own server by base URL).",
    defaultUrl: "https://api.trychroma.com",
    placeholder: "http://chroma.internal:8000",
    fields: [
      { name: "tenant", label: "Tenant", placeholder: "default_tenant", optional: true },
      { name: "database", label: "Database", placeholder: "default_database", optional: true },
    ],
  },
  elasticsearch: {
    label: "Elasticsearch",
    hint: "An Elasticsearch API key and the cluster's URL (Elastic Cloud's endpoint, or your own cluster's).",
    placeholder: "https://my-deployment.es.us-east-1.aws.elastic.cloud",
  },
  // Document sources.
  github: {
    label: "GitHub",
    hint: "A GitHub token with read access to repository contents (GitHub Enterprise: its API URL as base URL).",
    defaultUrl: "https://api.github.com",
    placeholder: "https://github.example.com/api/v3",
  },
} as const satisfies Record<string, ProviderKind>;

export type ProviderKindId = keyof typeof PROVIDER_KINDS;
export const PROVIDER_KIND_IDS = Object.keys(PROVIDER_KINDS) as ProviderKindId[];

/** The Azure OpenAI REST API version a credential gets when it names none (GA, supports tools and streaming usage). */
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";
