import http from "node:http";
import type { AddressInfo } from "node:net";
import { AppError, errorBody } from "@/common/errors";
import {
  buildCatalog,
  type CatalogProduct,
  COUNTRY_CODES,
  type CountryCode,
  type ProductQuery,
  searchCatalog,
  toApiProduct,
} from "./catalog";

/**
 * A real HTTP server implementing flows/specs/product-search.yaml (dev/product-api/spec.ts) over the
 * deterministic demo catalog, or a catalog a test passes. Used by `npm run product-api` (and so
 * `npm run demo` and the e2e tests), the bench, the integration tests and the node tests.
 */

export const PRODUCTS_PATH = "/public/ai/v0/products";
export const DEFAULT_SIZE = 5;
export const MAX_SIZE = 50;
const UNAVAILABLE_MESSAGE = "One or more services are unavailable";

export interface ProductApiOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Start answering 503; defaults to env PRODUCT_API_UNAVAILABLE=1. */
  unavailable?: boolean;
  /** The products to serve instead of the demo catalog (e.g. `fixtureLaptops()`). */
  catalog?: CatalogProduct[];
}

/** One request the server received on the products path (admin calls are not recorded). */
export interface RecordedRequest {
  method: string;
  url: string;
  query: Record<string, string>;
}

export interface ProductApi {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:4010 */
  url: string;
  host: string;
  port: number;
  requests: RecordedRequest[];
  setUnavailable(on: boolean): void;
  isUnavailable(): boolean;
  /**
   * Holds every products reply until `gate()` resolves (a slow API, for tests that need to see what
   * happens while a call is in flight); `undefined` answers at once again.
   */
  setGate(gate: (() => Promise<void>) | undefined): void;
  close(): Promise<void>;
}

type Reply = { status: number; body: unknown };

function badRequest(message: string): Reply {
  return { status: 400, body: errorBody(new AppError("bad_request", message)) };
}

/** Parse an optional non-negative integer parameter; a string means "invalid, here is why". */
function parseInteger(params: URLSearchParams, name: string): number | undefined | string {
  const raw = params.get(name);
  if (raw === null || raw.trim() === "") return undefined;
  if (!/^\d+$/.test(raw.trim())) return `Query parameter "${name}" must be a non-negative integer, got "${raw}"`;
  return Number(raw.trim());
}

/** Validate the query string of a products request into a ProductQuery, or a 400 reply. */
export function parseProductQuery(params: URLSearchParams): ProductQuery | Reply {
  const country = (params.get("countryCode") ?? "").trim().toUpperCase();
  if (!country) return badRequest('Query parameter "countryCode" is required (one of US, GB, DE, SE, DK)');
  if (!(COUNTRY_CODES as readonly string[]).includes(country)) {
    return badRequest(`Unsupported countryCode "${params.get("countryCode")}"; supported: ${COUNTRY_CODES.join(", ")}`);
  }
  const q = (params.get("q") ?? "").trim();
  if (!q) return badRequest('Query parameter "q" is required');
  const ints: Record<string, number | undefined> = {};
  for (const name of ["size", "min_price", "max_price"]) {
    const value = parseInteger(params, name);
    if (typeof value === "string") return badRequest(value);
    ints[name] = value;
  }
  if (ints.size === 0) return badRequest('Query parameter "size" must be at least 1');
  if (ints.min_price !== undefined && ints.max_price !== undefined && ints.min_price > ints.max_price) {
    return badRequest('"min_price" must not be greater than "max_price"');
  }
  return {
    countryCode: country as CountryCode,
    q,
    size: Math.min(ints.size ?? DEFAULT_SIZE, MAX_SIZE),
    minPrice: ints.min_price,
    maxPrice: ints.max_price,
  };
}

function send(res: http.ServerResponse, reply: Reply): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

interface ApiState {
  catalog: CatalogProduct[];
  requests: RecordedRequest[];
  unavailable: boolean;
}

/** Answer one request: admin switches, then the products endpoint (recorded, 503 while unavailable). */
function routeRequest(req: http.IncomingMessage, state: ApiState): Reply {
  const url = new URL(req.url ?? "/", "http://localhost");
  const method = req.method ?? "GET";
  if (url.pathname === "/__admin/unavailable" && method === "POST") {
    state.unavailable = ["1", "true", "on"].includes(url.searchParams.get("on") ?? "1");
    return { status: 200, body: { unavailable: state.unavailable } };
  }
  if (url.pathname === "/__admin/requests" && method === "GET")
    return { status: 200, body: { requests: state.requests } };
  if (url.pathname !== PRODUCTS_PATH) {
    return { status: 404, body: errorBody(new AppError("not_found", `No route for ${url.pathname}`)) };
  }
  state.requests.push({ method, url: req.url ?? "/", query: Object.fromEntries(url.searchParams) });
  if (method !== "GET") {
    return { status: 405, body: errorBody(new AppError("method_not_allowed", `${method} is not allowed; use GET`)) };
  }
  if (state.unavailable)
    return { status: 503, body: errorBody(new AppError("upstream_unavailable", UNAVAILABLE_MESSAGE)) };
  const query = parseProductQuery(url.searchParams);
  if ("status" in query) return query;
  return { status: 200, body: { products: searchCatalog(state.catalog, query).map(toApiProduct) } };
}

/** Start the product-search API. Resolves once it listens. */
export async function createProductApi(opts: ProductApiOptions = {}): Promise<ProductApi> {
  const state: ApiState = {
    catalog: opts.catalog ?? buildCatalog(),
    requests: [],
    unavailable: opts.unavailable ?? process.env.PRODUCT_API_UNAVAILABLE === "1",
  };
  let gate: (() => Promise<void>) | undefined;
  const server = http.createServer((req, res) => {
    // Drain any request body so keep-alive connections stay usable.
    req.resume();
    req.on("end", () => {
      const reply = () => send(res, routeRequest(req, state));
      if (gate && req.url?.startsWith(PRODUCTS_PATH)) void gate().then(reply, reply);
      else reply();
    });
  });
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    requests: state.requests,
    setUnavailable: (on) => {
      state.unavailable = on;
    },
    isUnavailable: () => state.unavailable,
    setGate: (g) => {
      gate = g;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
