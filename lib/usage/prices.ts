import { DEFAULT_PRICES } from "./default-prices";

/** A model's price, USD per million tokens. */
export interface ModelPrice {
  model: string;
  inputPerMTok: number;
  outputPerMTok: number;
}

/** One model's share of an answer's tokens. */
export interface ModelTokens {
  model: string;
  promptTokens: number;
  completionTokens: number;
}

/** The price table in force: the defaults, each replaced by an admin's price of the same name. */
export function effectivePrices(adminPrices: readonly ModelPrice[]): (ModelPrice & { source: "default" | "admin" })[] {
  const byName = new Map<string, ModelPrice & { source: "default" | "admin" }>();
  for (const p of DEFAULT_PRICES) byName.set(p.model, { ...p, source: "default" });
  for (const p of adminPrices) byName.set(p.model, { ...p, source: "admin" });
  return [...byName.values()].sort((a, b) => a.model.localeCompare(b.model));
}

/**
 * The price of a model as a provider names it: the entry of the same name, else the longest entry
 * the name starts with followed by a dash (a dated or suffixed version: "gpt-4o-2024-08-06" is
 * priced as "gpt-4o", "gpt-4o-mini-2024-07-18" as "gpt-4o-mini"). Gemini's "models/" is ignored.
 */
export function priceFor(model: string, table: readonly ModelPrice[]): ModelPrice | undefined {
  const name = model.replace(/^models\//, "").toLowerCase();
  let best: ModelPrice | undefined;
  for (const p of table) {
    const key = p.model.toLowerCase();
    if (key === name) return p;
    if (name.startsWith(`${key}-`) && (!best || key.length > best.model.length)) best = p;
  }
  return best;
}

/**
 * What an answer cost in USD: each model's tokens at its price. Null when a model that used tokens
 * has no price (an unknown cost is not a free one); 0 for an answer that called no model.
 */
export function costOf(tokens: readonly ModelTokens[], table: readonly ModelPrice[]): number | null {
  let total = 0;
  for (const t of tokens) {
    if (t.promptTokens === 0 && t.completionTokens === 0) continue;
    const price = priceFor(t.model, table);
    if (!price) return null;
    total += (t.promptTokens * price.inputPerMTok + t.completionTokens * price.outputPerMTok) / 1_000_000;
  }
  // Rounded to a millionth of a cent: sums of many small costs stay readable.
  return Math.round(total * 1e8) / 1e8;
}
