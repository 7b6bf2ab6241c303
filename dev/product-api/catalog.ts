/**
 * The deterministic catalog behind the demo product-search API. It is generated from a few small
 * tables (no randomness, no clock), so every run and every test sees the same products and prices.
 */

export const COUNTRY_CODES = ["US", "GB", "DE", "SE", "DK"] as const;
export type CountryCode = (typeof COUNTRY_CODES)[number];

/** One product of the catalog; `amount` is the price in the country's currency. */
export interface CatalogProduct {
  id: string;
  country: CountryCode;
  category: string;
  name: string;
  amount: number;
  currency: string;
  attributes: string[];
  url: string;
}

// Local currency and a rough conversion from a USD list price, plus the shop domain per country.
const MARKETS: Record<CountryCode, { currency: string; rate: number; domain: string }> = {
  US: { currency: "USD", rate: 1, domain: "shop.example.com" },
  GB: { currency: "GBP", rate: 0.79, domain: "shop.example.co.uk" },
  DE: { currency: "EUR", rate: 0.92, domain: "shop.example.de" },
  SE: { currency: "SEK", rate: 10.6, domain: "shop.example.se" },
  DK: { currency: "DKK", rate: 6.9, domain: "shop.example.dk" },
};

interface CategorySeed {
  category: string;
  models: { name: string; usd: number; attributes: string[] }[];
}

const CATEGORIES: CategorySeed[] = [
  {
    category: "laptop",
    models: [
      { name: "Northwind Air 13 Laptop", usd: 999, attributes: ["13-inch", "16 GB RAM", "512 GB SSD", "lightweight"] },
      {
        name: "Contoso ProBook 15 Laptop",
        usd: 1449,
        attributes: ["15-inch", "32 GB RAM", "1 TB SSD", "backlit keyboard"],
      },
      { name: "Fabrikam Creator 16 Laptop", usd: 2199, attributes: ["16-inch", "OLED", "RTX graphics", "64 GB RAM"] },
    ],
  },
  {
    category: "headphones",
    models: [
      {
        name: "Tailspin Quiet Over-Ear Headphones",
        usd: 299,
        attributes: ["wireless", "noise cancelling", "30 h battery"],
      },
      {
        name: "Litware Buds Pro Headphones",
        usd: 149,
        attributes: ["in-ear", "wireless", "earbuds", "water resistant"],
      },
    ],
  },
  {
    category: "phone",
    models: [
      { name: "Adatum Pixel-S Phone", usd: 699, attributes: ["smartphone", "6.1-inch", "128 GB", "5G"] },
      { name: "Wingtip Max Phone", usd: 1099, attributes: ["smartphone", "6.7-inch", "256 GB", "triple camera"] },
    ],
  },
  {
    category: "monitor",
    models: [
      { name: "Proseware 27 4K Monitor", usd: 399, attributes: ["27-inch", "4K", "IPS", "USB-C"] },
      { name: "Proseware 34 Ultrawide Monitor", usd: 649, attributes: ["34-inch", "ultrawide", "144 Hz"] },
    ],
  },
  {
    category: "keyboard",
    models: [
      { name: "Woodgrove Mechanical Keyboard", usd: 129, attributes: ["mechanical", "tactile switches", "RGB"] },
      { name: "Woodgrove Slim Wireless Keyboard", usd: 59, attributes: ["wireless", "low profile", "bluetooth"] },
    ],
  },
  {
    category: "coffee maker",
    models: [
      { name: "Alpine Drip Coffee Maker", usd: 79, attributes: ["12 cups", "programmable", "filter coffee"] },
      { name: "Alpine Barista Espresso Coffee Maker", usd: 549, attributes: ["espresso", "milk frother", "15 bar"] },
    ],
  },
  {
    category: "running shoe",
    models: [
      { name: "Stride Cloud Running Shoe", usd: 139, attributes: ["road running", "cushioned", "breathable"] },
      { name: "Stride Trail Running Shoe", usd: 159, attributes: ["trail running", "waterproof", "grippy sole"] },
    ],
  },
  {
    category: "backpack",
    models: [
      { name: "Trekker 30L Backpack", usd: 89, attributes: ["30 litres", "laptop sleeve", "water resistant"] },
      { name: "Trekker Commuter Backpack", usd: 119, attributes: ["20 litres", "anti-theft", "USB port"] },
    ],
  },
  {
    category: "tablet",
    models: [{ name: "Northwind Tab 11 Tablet", usd: 449, attributes: ["11-inch", "stylus support", "128 GB"] }],
  },
  {
    category: "smartwatch",
    models: [{ name: "Tailspin Pulse Smartwatch", usd: 249, attributes: ["heart rate", "GPS", "watch"] }],
  },
  {
    category: "camera",
    models: [
      { name: "Fabrikam Mirrorless X Camera", usd: 1299, attributes: ["24 MP", "4K video", "interchangeable lens"] },
    ],
  },
];

/** Round a converted price to something a shop would print: .99 endings, whole numbers for SEK/DKK. */
function localPrice(usd: number, country: CountryCode): number {
  const { rate } = MARKETS[country];
  const raw = usd * rate;
  if (rate >= 5) return Math.round(raw / 10) * 10 - 1; // 6899 SEK, 2069 DKK
  return Math.max(1, Math.round(raw)) - 0.01; // 919.99 EUR
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Build the full catalog: every model in every country, in a fixed order. */
export function buildCatalog(): CatalogProduct[] {
  const products: CatalogProduct[] = [];
  for (const country of COUNTRY_CODES) {
    const market = MARKETS[country];
    for (const seed of CATEGORIES) {
      for (const model of seed.models) {
        const id = `${country.toLowerCase()}-${slug(model.name)}`;
        products.push({
          id,
          country,
          category: seed.category,
          name: model.name,
          amount: localPrice(model.usd, country),
          currency: market.currency,
          attributes: [seed.category, ...model.attributes],
          url: `https://${market.domain}/p/${slug(model.name)}`,
        });
      }
    }
  }
  return products;
}

/** The currency a country's prices are in. */
export function currencyOf(country: CountryCode): string {
  return MARKETS[country].currency;
}

const SYNONYMS: Record<string, string> = {
  notebook: "laptop",
  smartphone: "phone",
  mobile: "phone",
  cellphone: "phone",
  earbud: "headphone",
  earphone: "headphone",
  headset: "headphone",
  screen: "monitor",
  display: "monitor",
  sneaker: "shoe",
  trainer: "shoe",
  rucksack: "backpack",
};

/** Lower-case a word and strip a plural ending, so "Laptops", "batteries", "shoes" match their singular. */
export function singularize(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 4 && /(ches|shes|sses|xes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) return w.slice(0, -1);
  return w;
}

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((t) => singularize(t))
    .map((t) => SYNONYMS[t] ?? t);
}

/**
 * True when every word of the query occurs (singular/plural tolerant) in the product's text.
 * `inAttributes: false` looks only at the name and category.
 */
export function matchesQuery(product: CatalogProduct, query: string, inAttributes = true): boolean {
  const wanted = tokens(query);
  if (wanted.length === 0) return false;
  const text = [product.name, product.category, ...(inAttributes ? product.attributes : [])];
  const have = new Set(tokens(text.join(" ")));
  return wanted.every((t) => have.has(t));
}

/** Search criteria, already validated. */
export interface ProductQuery {
  countryCode: CountryCode;
  q: string;
  size: number;
  minPrice?: number;
  maxPrice?: number;
}

/** Filter the catalog by country, query and price range; cheapest first, at most `size` items. */
export function searchCatalog(catalog: CatalogProduct[], query: ProductQuery): CatalogProduct[] {
  const local = catalog.filter((p) => p.country === query.countryCode);
  // "laptop" should find laptops, not backpacks with a laptop sleeve: attributes are a fallback.
  const byName = local.filter((p) => matchesQuery(p, query.q, false));
  const found = byName.length > 0 ? byName : local.filter((p) => matchesQuery(p, query.q));
  return found
    .filter((p) => query.minPrice === undefined || p.amount >= query.minPrice)
    .filter((p) => query.maxPrice === undefined || p.amount <= query.maxPrice)
    .sort((a, b) => a.amount - b.amount)
    .slice(0, query.size);
}

/** The Product shape of the spec: price as "1299.00 EUR". */
export function toApiProduct(p: CatalogProduct) {
  return { name: p.name, price: `${p.amount.toFixed(2)} ${p.currency}`, url: p.url, attributes: p.attributes };
}

/**
 * Three laptops at 899, 1399 and 2999 in every country's currency: a catalog small enough for a
 * test to name what a search finds (a search under 1500 finds the ThinkBook 14 and the ZenBook Pro).
 */
export function fixtureLaptops(): CatalogProduct[] {
  const models = [
    { name: "ThinkBook 14", amount: 899, slug: "thinkbook-14", attributes: ["14 inch", "16 GB"] },
    { name: "ZenBook Pro", amount: 1399, slug: "zenbook-pro", attributes: ["OLED"] },
    { name: "MacBook Pro 16", amount: 2999, slug: "mbp-16", attributes: ["M4"] },
  ];
  return COUNTRY_CODES.flatMap((country) =>
    models.map((m) => ({
      id: `${country.toLowerCase()}-${m.slug}`,
      country,
      category: "laptop",
      name: m.name,
      amount: m.amount,
      currency: MARKETS[country].currency,
      attributes: ["laptop", ...m.attributes],
      url: `https://shop.example/${m.slug}`,
    })),
  );
}
