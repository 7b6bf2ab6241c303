import { SPEC_PRODUCT_API } from "../dev/product-api/spec";

/**
 * Where the servers started by playwright.config.ts listen. The config chooses free ports once, in
 * Playwright's main process, and the workers inherit them through these variables.
 */
function portOf(name: string): number {
  const port = Number(process.env[name]);
  if (!Number.isInteger(port) || port <= 0)
    throw new Error(`${name} is not set: run the browser tests through playwright.config.ts`);
  return port;
}

export const APP = `http://127.0.0.1:${portOf("E2E_PORT")}`;
export const MODEL_STUB = `http://127.0.0.1:${portOf("E2E_MODEL_STUB_PORT")}`;
/** The demo product API of this run (its `/__admin/requests` lists the calls it got). */
export const PRODUCT_API = `http://127.0.0.1:${portOf("E2E_PRODUCT_API_PORT")}`;
/** A port the app may call besides the stubs (OUTBOUND_ALLOW_HOSTS), for a spec's own proxy. */
export const TOOL_PROXY_PORT = portOf("E2E_TOOL_PROXY_PORT");

/** An OpenAPI spec's text with the demo product API's fixed address replaced by this run's. */
export function withProductApi(specText: string): string {
  if (!specText.includes(SPEC_PRODUCT_API))
    throw new Error(`the spec no longer names ${SPEC_PRODUCT_API}: update e2e/servers.ts`);
  return specText.replaceAll(SPEC_PRODUCT_API, PRODUCT_API);
}
