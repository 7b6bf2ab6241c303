import { expect, type Page } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";

/** Signs in through the real form. */
export async function signIn(page: Page) {
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
