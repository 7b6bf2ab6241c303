import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/** The product-search spec used by the tests (a copy of flows/specs/product-search.yaml). */
export const productSearchSpec = readFileSync(path.join(import.meta.dirname, "product-search.yaml"), "utf8");

/** A tiny product API on 127.0.0.1 (random port). Answers 503 while `unavailable` is true. */
export async function startProductApi() {
  const requests: { method: string; url: URL }[] = [];
  const state = { unavailable: false };
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push({ method: req.method ?? "", url });
    if (state.unavailable) {
      res.writeHead(503).end();
      return;
    }
    if (url.pathname !== "/public/ai/v0/products") {
      res.writeHead(404).end();
      return;
    }
    const max = Number(url.searchParams.get("max_price") ?? Infinity);
    const products = [
      { name: "ThinkBook 14", price: "899.00", url: "https://shop.example/thinkbook-14", attributes: ["14 inch", "16 GB"] },
      { name: "ZenBook Pro", price: "1399.00", url: "https://shop.example/zenbook-pro", attributes: ["OLED"] },
      { name: "MacBook Pro 16", price: "2999.00", url: "https://shop.example/mbp-16", attributes: ["M4"] },
    ].filter((p) => Number(p.price) <= max);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ products }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
