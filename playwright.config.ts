import { execFileSync } from "node:child_process";
import { defineConfig } from "@playwright/test";

// Real Chromium from Debian (Playwright cannot download its own browsers here) against the built
// app on its own port and its own fresh data directory.

/**
 * Free ports for the app, the model stub and the demo product API, so `npm test` runs beside the
 * README's demo (which holds 4010/4011) or another test run. Chosen once, in the main process:
 * Playwright evaluates this file again in every worker, and the workers inherit process.env, so they
 * reuse these values instead of picking new ones. Set E2E_PORT etc. to choose them yourself.
 */
function freePorts(count: number): number[] {
  // Synchronous (the config cannot await): a child binds `count` sockets to port 0 at once, so the
  // ports differ, and prints them.
  const script = `const net=require("net");const s=[...Array(${count})].map(()=>net.createServer());
Promise.all(s.map(x=>new Promise(r=>x.listen(0,"127.0.0.1",r)))).then(()=>{
console.log(s.map(x=>x.address().port).join(","));s.forEach(x=>x.close());});`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim().split(",").map(Number);
}

if (
  !process.env.E2E_PORT ||
  !process.env.E2E_MODEL_STUB_PORT ||
  !process.env.E2E_PRODUCT_API_PORT ||
  !process.env.E2E_TOOL_PROXY_PORT
) {
  const [app, model, product, proxy] = freePorts(4);
  process.env.E2E_PORT ||= String(app);
  process.env.E2E_MODEL_STUB_PORT ||= String(model);
  process.env.E2E_PRODUCT_API_PORT ||= String(product);
  // A spec's own proxy in front of the product API (e2e/tool-progress.spec.ts holds calls there).
  process.env.E2E_TOOL_PROXY_PORT ||= String(proxy);
}
// Same rule for the data directory: one per run, shared by the workers.
process.env.E2E_DATA_DIR ||= `./data/e2e-${Date.now()}`;

const PORT = Number(process.env.E2E_PORT);
const MODEL_STUB_PORT = Number(process.env.E2E_MODEL_STUB_PORT);
const PRODUCT_API_PORT = Number(process.env.E2E_PRODUCT_API_PORT);
const TOOL_PROXY_PORT = Number(process.env.E2E_TOOL_PROXY_PORT);
const DATA_DIR = process.env.E2E_DATA_DIR;
export const E2E_ADMIN = { email: "admin@e2e.test", password: "e2e-admin-pass" };

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 800 },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-quic",
      ],
    },
  },
  // The app, plus the scripted OpenAI-compatible model and the demo product API it calls.
  webServer: [
    {
      command: "npx tsx scripts/model-stub.ts",
      url: `http://127.0.0.1:${MODEL_STUB_PORT}/v1/models`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { MODEL_STUB_PORT: String(MODEL_STUB_PORT), MODEL_STUB_HOST: "127.0.0.1" },
    },
    {
      command: "npx tsx scripts/product-api.ts",
      url: `http://127.0.0.1:${PRODUCT_API_PORT}/public/ai/v0/products?countryCode=US&q=laptop`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: String(PRODUCT_API_PORT), HOST: "127.0.0.1" },
    },
    {
      // As `npm run serve` starts it (server/run-node.sh: jemalloc when the machine has it).
      command: "sh server/run-node.sh server/start.mjs --no-build",
      url: `http://127.0.0.1:${PORT}/api/v1/ping`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(PORT),
        HOST: "127.0.0.1",
        DATA_DIR,
        DATABASE_URL: `pglite:${DATA_DIR}/pglite`,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        ADMIN_NAME: "E2E Admin",
        OPENAI_API_KEY: "stub-key",
        OPENAI_BASE_URL: `http://127.0.0.1:${MODEL_STUB_PORT}/v1`,
        // The demo product API is a private address: allowed by the operator, as the README's demo does.
        OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${PRODUCT_API_PORT},127.0.0.1:${MODEL_STUB_PORT},127.0.0.1:${TOOL_PROXY_PORT}`,
        OPENAI_MODEL: "stub-model",
      },
    },
  ],
});
