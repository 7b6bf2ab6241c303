import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * The product-search OpenAPI spec: one file, flows/specs/product-search.yaml, which the example
 * flows embed (`{ "$file": "specs/product-search.yaml" }`), the demo product API implements and the
 * tests, the bench and the browser tests read from here.
 */
export const PRODUCT_SEARCH_SPEC_PATH = path.resolve(import.meta.dirname, "../../flows/specs/product-search.yaml");

/** The server the spec names: where `npm run demo` runs the product API. */
export const SPEC_PRODUCT_API = "http://127.0.0.1:4010";

/** The spec's text. */
export const productSearchSpec = readFileSync(PRODUCT_SEARCH_SPEC_PATH, "utf8");
