import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { productSearchSpec } from "./spec";
import { createProductApi, parseProductQuery, PRODUCTS_PATH, type ProductApi } from "./server";
import { buildCatalog, COUNTRY_CODES, singularize } from "./catalog";

type Product = { name: string; price: string; url: string; attributes: string[] };

let api: ProductApi;
beforeAll(async () => {
  api = await createProductApi({ unavailable: false });
});
afterAll(() => api.close());

async function get(query: string) {
  const res = await fetch(`${api.url}${PRODUCTS_PATH}?${query}`);
  return {
    status: res.status,
    body: (await res.json()) as { products?: Product[]; error?: { code: string; message: string } },
  };
}

describe("catalog", () => {
  it("has at least 50 products spread over the five countries with local currencies", () => {
    const catalog = buildCatalog();
    expect(catalog.length).toBeGreaterThanOrEqual(50);
    const currencies = Object.fromEntries(
      COUNTRY_CODES.map((c) => [c, new Set(catalog.filter((p) => p.country === c).map((p) => p.currency))]),
    );
    expect(currencies).toEqual({
      US: new Set(["USD"]),
      GB: new Set(["GBP"]),
      DE: new Set(["EUR"]),
      SE: new Set(["SEK"]),
      DK: new Set(["DKK"]),
    });
    expect(buildCatalog()).toEqual(catalog);
  });

  it("singularizes common plurals", () => {
    expect(["laptops", "shoes", "batteries", "watches", "glass"].map(singularize)).toEqual([
      "laptop",
      "shoe",
      "battery",
      "watch",
      "glass",
    ]);
  });
});

describe("product-search API", () => {
  it("finds laptops in Germany under a max price, cheapest first, priced in EUR", async () => {
    const { status, body } = await get("countryCode=DE&q=Laptops&max_price=1500");
    expect(status).toBe(200);
    const products = body.products!;
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) {
      expect(p.name).toMatch(/Laptop/);
      expect(p.price).toMatch(/^\d+\.\d{2} EUR$/);
      expect(Number.parseFloat(p.price)).toBeLessThanOrEqual(1500);
      expect(p.url).toMatch(/^https:\/\/shop\.example\.de\//);
    }
    const prices = products.map((p) => Number.parseFloat(p.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it("matches multi-word categories and attributes, and honours min_price and size", async () => {
    const shoes = await get("countryCode=SE&q=running%20shoes");
    expect(shoes.body.products!.map((p) => p.price.endsWith(" SEK"))).toEqual([true, true]);
    const coffee = await get("countryCode=GB&q=coffee+maker&min_price=100");
    expect(coffee.body.products!.map((p) => p.name)).toEqual(["Alpine Barista Espresso Coffee Maker"]);
    const one = await get("countryCode=US&q=laptop&size=1");
    expect(one.body.products).toHaveLength(1);
  });

  it("caps size at 50 and defaults to 5", async () => {
    const capped = parseProductQuery(new URLSearchParams("countryCode=US&q=laptop&size=500"));
    expect(capped).toMatchObject({ countryCode: "US", q: "laptop", size: 50 });
    const defaults = await get("countryCode=US&q=inch");
    expect(defaults.body.products).toHaveLength(5);
    const more = await get("countryCode=US&q=inch&size=50");
    expect(more.body.products!.length).toBeGreaterThan(5);
  });

  it("answers an empty list when nothing matches", async () => {
    expect(await get("countryCode=DK&q=submarine")).toEqual({ status: 200, body: { products: [] } });
  });

  it.each([
    ["q=laptop", /countryCode.*required/],
    ["countryCode=FR&q=laptop", /Unsupported countryCode "FR"/],
    ["countryCode=US", /"q" is required/],
    ["countryCode=US&q=laptop&max_price=cheap", /"max_price" must be a non-negative integer/],
    ["countryCode=US&q=laptop&size=1.5", /"size" must be a non-negative integer/],
    ["countryCode=US&q=laptop&min_price=900&max_price=100", /min_price/],
  ])("answers 400 with a JSON error for %s", async (query, message) => {
    const { status, body } = await get(query);
    expect(status).toBe(400);
    expect(body.error?.code).toBe("bad_request");
    expect(body.error?.message).toMatch(message);
  });

  it("answers 503 while unavailable, switchable in code and over the admin endpoint", async () => {
    api.setUnavailable(true);
    const down = await get("countryCode=US&q=laptop");
    expect(down.status).toBe(503);
    expect(down.body.error?.message).toBe("One or more services are unavailable");
    api.setUnavailable(false);
    expect((await get("countryCode=US&q=laptop")).status).toBe(200);
    const on = await fetch(`${api.url}/__admin/unavailable?on=1`, { method: "POST" });
    expect(await on.json()).toEqual({ unavailable: true });
    expect((await get("countryCode=US&q=laptop")).status).toBe(503);
    await fetch(`${api.url}/__admin/unavailable?on=0`, { method: "POST" });
    expect(api.isUnavailable()).toBe(false);
  });

  it("records product requests with their query", async () => {
    const before = api.requests.length;
    await get("countryCode=DK&q=monitor&size=2");
    expect(api.requests.slice(before)).toEqual([
      {
        method: "GET",
        url: `${PRODUCTS_PATH}?countryCode=DK&q=monitor&size=2`,
        query: { countryCode: "DK", q: "monitor", size: "2" },
      },
    ]);
  });

  it("starts unavailable when PRODUCT_API_UNAVAILABLE=1", async () => {
    process.env.PRODUCT_API_UNAVAILABLE = "1";
    const down = await createProductApi().finally(() => delete process.env.PRODUCT_API_UNAVAILABLE);
    try {
      expect((await fetch(`${down.url}${PRODUCTS_PATH}?countryCode=US&q=laptop`)).status).toBe(503);
    } finally {
      await down.close();
    }
  });
});

describe("product-search spec", () => {
  const spec = parse(productSearchSpec);
  const op = spec.paths[PRODUCTS_PATH].get;

  it("is an OpenAPI 3.0.1 document of the v0 product endpoint", () => {
    expect(spec.openapi).toBe("3.0.1");
    expect(spec.servers).toEqual([{ url: "http://127.0.0.1:4010" }]);
    expect(spec.info.description).toMatch(/v0/);
    expect({ operationId: op.operationId, tags: op.tags, deprecated: op.deprecated }).toEqual({
      operationId: "productsUsingGET",
      tags: ["ai-product-endpoint"],
      deprecated: false,
    });
    expect(Object.keys(op.responses)).toEqual(["200", "503"]);
    expect(op.responses["503"]).toEqual({ description: "One or more services are unavailable" });
  });

  it("declares the five query parameters the server implements", () => {
    const params = op.parameters.map((p: { name: string; required: boolean; schema: { type: string } }) => [
      p.name,
      p.required,
      p.schema.type,
    ]);
    expect(params).toEqual([
      ["countryCode", true, "string"],
      ["q", true, "string"],
      ["size", false, "integer"],
      ["min_price", false, "integer"],
      ["max_price", false, "integer"],
    ]);
    expect(op.parameters[0].schema.enum).toEqual([...COUNTRY_CODES]);
  });
});

describe("npm run product-api", () => {
  it("logs its address and exits with 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/product-api.ts"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
    });
    const address = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        const m = /listening on (http:\/\/\S+)/.exec(d.toString());
        if (m) resolve(m[1]);
      });
      child.once("exit", (code) => reject(new Error(`exited early with ${code}`)));
    });
    const res = await fetch(`${address}${PRODUCTS_PATH}?countryCode=GB&q=backpack`);
    expect(res.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    expect(await exit).toBe(0);
  }, 20_000);
});
