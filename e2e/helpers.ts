import { expect, type Page } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";

const violations = new WeakMap<Page, string[]>();

/**
 * The Content-Security-Policy violations Chromium reported on this page ("Refused to …" console
 * messages) since signIn() started watching it: the studio must run under its CSP with none.
 */
export function cspViolations(page: Page): string[] {
  return violations.get(page) ?? [];
}

function watchCsp(page: Page) {
  if (violations.has(page)) return;
  const seen: string[] = [];
  violations.set(page, seen);
  page.on("console", (msg) => {
    if (msg.text().includes("Refused to") || msg.text().includes("Content Security Policy")) seen.push(msg.text());
  });
}

/** Signs in through the real form (and starts collecting CSP violations, see cspViolations). */
export async function signIn(page: Page) {
  watchCsp(page);
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/chatflows$/);
}

/** Screenshots kept as test artifacts under test-results/screens. */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: `test-results/screens/${name}.png`, fullPage: true });
}
