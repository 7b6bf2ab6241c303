/**
 * Built-in model prices, USD per million tokens (standard tier: no batch, cache or priority
 * discounts; for models priced by prompt length, the short-prompt tier). An admin's price of the
 * same name (PUT /api/v1/usage/prices) replaces one; a model matching none costs null, not 0.
 *
 * Where the figures come from: the providers' public price pages (openai.com/api/pricing,
 * anthropic.com/pricing, ai.google.dev/gemini-api/docs/pricing, mistral.ai/pricing) as the author
 * knew them in mid-2025. They were NOT re-read from the live pages when written (December 2026, no
 * web access from the build machine): providers change prices, so admins should check and override.
 */
export const DEFAULT_PRICES_AS_OF = "2025-06";

export const DEFAULT_PRICES: readonly { model: string; inputPerMTok: number; outputPerMTok: number }[] = [
  // OpenAI
  { model: "gpt-4o", inputPerMTok: 2.5, outputPerMTok: 10 },
  { model: "gpt-4o-mini", inputPerMTok: 0.15, outputPerMTok: 0.6 },
  { model: "gpt-4.1", inputPerMTok: 2, outputPerMTok: 8 },
  { model: "gpt-4.1-mini", inputPerMTok: 0.4, outputPerMTok: 1.6 },
  { model: "gpt-4.1-nano", inputPerMTok: 0.1, outputPerMTok: 0.4 },
  { model: "o3", inputPerMTok: 2, outputPerMTok: 8 },
  { model: "o3-mini", inputPerMTok: 1.1, outputPerMTok: 4.4 },
  { model: "o4-mini", inputPerMTok: 1.1, outputPerMTok: 4.4 },
  // Anthropic
  { model: "claude-3-haiku", inputPerMTok: 0.25, outputPerMTok: 1.25 },
  { model: "claude-3-5-haiku", inputPerMTok: 0.8, outputPerMTok: 4 },
  { model: "claude-3-5-sonnet", inputPerMTok: 3, outputPerMTok: 15 },
  { model: "claude-3-7-sonnet", inputPerMTok: 3, outputPerMTok: 15 },
  { model: "claude-3-opus", inputPerMTok: 15, outputPerMTok: 75 },
  { model: "claude-sonnet-4", inputPerMTok: 3, outputPerMTok: 15 },
  { model: "claude-opus-4", inputPerMTok: 15, outputPerMTok: 75 },
  // Google
  { model: "gemini-1.5-flash", inputPerMTok: 0.075, outputPerMTok: 0.3 },
  { model: "gemini-1.5-pro", inputPerMTok: 1.25, outputPerMTok: 5 },
  { model: "gemini-2.0-flash", inputPerMTok: 0.1, outputPerMTok: 0.4 },
  { model: "gemini-2.0-flash-lite", inputPerMTok: 0.075, outputPerMTok: 0.3 },
  { model: "gemini-2.5-flash", inputPerMTok: 0.3, outputPerMTok: 2.5 },
  { model: "gemini-2.5-flash-lite", inputPerMTok: 0.1, outputPerMTok: 0.4 },
  { model: "gemini-2.5-pro", inputPerMTok: 1.25, outputPerMTok: 10 },
  // Mistral
  { model: "mistral-large", inputPerMTok: 2, outputPerMTok: 6 },
  { model: "mistral-medium", inputPerMTok: 0.4, outputPerMTok: 2 },
  { model: "mistral-small", inputPerMTok: 0.1, outputPerMTok: 0.3 },
];
