import { defineConfig } from "@playwright/test";

// Real Chromium from Debian (Playwright cannot download its own browsers here) against the built
// app on its own port and its own fresh data directory.
const PORT = Number(process.env.E2E_PORT ?? 3210);
const DATA_DIR = process.env.E2E_DATA_DIR ?? `./data/e2e-${Date.now()}`;
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
        "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
      ],
    },
  },
  // The app, plus the scripted OpenAI-compatible model and the demo product API it calls.
  webServer: [
    {
      command: "npx tsx scripts/model-stub.ts",
      url: "http://127.0.0.1:4011/v1/models",
      reuseExistingServer: false,
      timeout: 60_000,
      env: { MODEL_STUB_PORT: "4011" },
    },
    {
      command: "npx tsx scripts/product-api.ts",
      url: "http://127.0.0.1:4010/public/ai/v0/products?countryCode=US&q=laptop",
      reuseExistingServer: false,
      timeout: 60_000,
      env: { PORT: "4010", HOST: "127.0.0.1" },
    },
    {
      command: "node scripts/start.mjs --no-build",
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
        OPENAI_BASE_URL: "http://127.0.0.1:4011/v1",
        OPENAI_MODEL: "stub-model",
        // The outbound guard only reaches private addresses the operator allowed: the product API.
        OUTBOUND_ALLOW_HOSTS: "127.0.0.1:4010",
      },
    },
  ],
});
