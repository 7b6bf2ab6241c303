// The browser both editor benches drive (bench/editor.ts for figures, bench/editor-trace.ts for
// traces): Debian's Chromium through playwright-core (CHROMIUM_PATH, default /usr/bin/chromium),
// software rendering, 1280×800, against BENCH_URL; BENCH_CSS adds a style sheet to every page (to try
// a change without a build).
import { chromium, type BrowserContext, type Page } from "playwright-core";

export const BENCH_URL = (process.env.BENCH_URL ?? "http://127.0.0.1:3000").replace(/\/$/, "");

/** Launches Chromium with a context on BENCH_URL; `extraArgs` are more Chromium flags. */
export async function openBenchBrowser(extraArgs: string[] = []) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--no-first-run",
      "--disable-background-networking",
      ...extraArgs,
    ],
  });
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    baseURL: BENCH_URL,
  });
  if (process.env.BENCH_CSS)
    await context.addInitScript((css) => {
      addEventListener("DOMContentLoaded", () => {
        const s = document.createElement("style");
        s.textContent = css;
        document.head.append(s);
      });
    }, process.env.BENCH_CSS);
  return { browser, context };
}

/** Signs in to the studio and waits for the chatflow list. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/chatflows$/);
}
