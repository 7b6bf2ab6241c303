/**
 * Reads a shopping request out of plain English the way a real model would for the demo:
 * which product, which country, which price range. Deterministic and deliberately small.
 */

export interface ProductIntent {
  q: string;
  countryCode: "US" | "GB" | "DE" | "SE" | "DK";
  minPrice?: number;
  maxPrice?: number;
}

// Multi-word names first so "running shoes" wins over "shoes".
const KNOWN_PRODUCTS: [RegExp, string][] = [
  [/\bcoffee ?(makers?|machines?)\b/, "coffee maker"],
  [/\bespresso machines?\b/, "coffee maker"],
  [/\brunning shoes?\b/, "running shoe"],
  [/\b(smart ?watch|smartwatch)(es)?\b/, "smartwatch"],
  [/\b(laptops?|notebooks?)\b/, "laptop"],
  [/\b(headphones?|earbuds?|headsets?)\b/, "headphones"],
  [/\b(smart ?phones?|phones?|mobiles?)\b/, "phone"],
  [/\b(monitors?|displays?)\b/, "monitor"],
  [/\bkeyboards?\b/, "keyboard"],
  [/\b(sneakers|trainers|shoes?)\b/, "running shoe"],
  [/\b(backpacks?|rucksacks?)\b/, "backpack"],
  [/\btablets?\b/, "tablet"],
  [/\bcameras?\b/, "camera"],
];

const COUNTRIES: [RegExp, ProductIntent["countryCode"]][] = [
  [/\b(germany|german|deutschland)\b|€|\beuros?\b/i, "DE"],
  [/\b(united kingdom|great britain|britain|british|england|uk)\b|£|\bpounds?\b/i, "GB"],
  [/\b(sweden|swedish|sverige)\b|\bsek\b|\bkronor\b/i, "SE"],
  [/\b(denmark|danish|danmark)\b|\bdkk\b|\bkroner\b/i, "DK"],
  [/\b(usa|united states|america)\b|\bU\.?S\.?\b|\$/, "US"],
];

const REQUEST_VERB = /\b(find|looking for|look for|search for|shopping for|buy|purchase|show me|recommend|suggest)\b/i;
const QUALIFIERS = new Set([
  "a",
  "an",
  "some",
  "the",
  "me",
  "new",
  "good",
  "cheap",
  "cheapest",
  "best",
  "latest",
  "premium",
  "nice",
  "great",
  "decent",
]);
const STOP_WORDS = new Set([
  "under",
  "below",
  "over",
  "above",
  "for",
  "in",
  "with",
  "between",
  "that",
  "which",
  "from",
  "less",
  "more",
  "to",
  "at",
]);

const NUMBER = String.raw`[$€£]?\s?(\d[\d,]*(?:\.\d+)?)\s?(?:k\b)?`;

/** The singular form of a lower-case English noun (enough for product words). */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The product the text asks about: a known category, else the noun after a request verb. */
export function productNoun(text: string): string | undefined {
  const lower = text.toLowerCase();
  for (const [pattern, noun] of KNOWN_PRODUCTS) if (pattern.test(lower)) return noun;
  const verb = REQUEST_VERB.exec(lower);
  if (!verb) return undefined;
  const words = lower
    .slice(verb.index + verb[0].length)
    .split(/[^a-z]+/)
    .filter(Boolean);
  const picked: string[] = [];
  for (const word of words) {
    if (picked.length === 0 && QUALIFIERS.has(word)) continue;
    if (STOP_WORDS.has(word) || picked.length === 2) break;
    picked.push(word);
  }
  return picked.length > 0 ? picked.map(singular).join(" ") : undefined;
}

/** The country the text names (or implies by currency); US when none. */
export function countryCode(text: string): ProductIntent["countryCode"] {
  for (const [pattern, code] of COUNTRIES) if (pattern.test(text)) return code;
  return "US";
}

function toNumber(raw: string, whole: string): number {
  const n = Number.parseFloat(raw.replace(/,/g, ""));
  return Math.round(/k\b/i.test(whole) ? n * 1000 : n);
}

/** Price bounds from "under N", "over N", "between A and B" (and close variants). */
export function priceRange(text: string): { minPrice?: number; maxPrice?: number } {
  const between = new RegExp(String.raw`\bbetween\s+${NUMBER}\s+and\s+${NUMBER}`, "i").exec(text);
  if (between) {
    const [a, b] = [toNumber(between[1], between[0]), toNumber(between[2], between[0])];
    return { minPrice: Math.min(a, b), maxPrice: Math.max(a, b) };
  }
  const range: { minPrice?: number; maxPrice?: number } = {};
  const max = new RegExp(
    String.raw`\b(?:under|below|less than|cheaper than|up to|at most|max(?:imum)?|no more than)\s+${NUMBER}`,
    "i",
  ).exec(text);
  if (max) range.maxPrice = toNumber(max[1], max[0]);
  const min = new RegExp(String.raw`\b(?:over|above|more than|at least|min(?:imum)?|from)\s+${NUMBER}`, "i").exec(text);
  if (min) range.minPrice = toNumber(min[1], min[0]);
  return range;
}

/** A shopping request read from the text, or undefined when the text does not ask for a product. */
export function readProductIntent(text: string): ProductIntent | undefined {
  const q = productNoun(text);
  if (!q) return undefined;
  return { q, countryCode: countryCode(text), ...priceRange(text) };
}
