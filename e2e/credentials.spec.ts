import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { MODEL_STUB } from "./servers";

// The credentials page: every provider kind from one catalogue, the fields each needs, and a
// connection test that calls the provider once with the key.
test("add a provider key, test it, and see the fields another kind needs", async ({ page }) => {
  await signIn(page);
  await page.goto("/credentials");
  const form = page.getByRole("form", { name: "Add credential" });
  const type = form.getByLabel("Type");
  for (const label of ["Azure OpenAI", "Mistral AI", "Groq", "Pinecone", "Google Custom Search", "GitHub"])
    await expect(type.locator("option", { hasText: label })).toHaveCount(1);

  const name = `Stub key ${Date.now()}`;
  await form.getByLabel("Name").fill(name);
  await type.selectOption({ label: "OpenAI-compatible" });
  await form.getByLabel("API key").fill("sk-e2e");
  await form.getByLabel("Base URL (optional)").fill(`${MODEL_STUB}/v1`);
  await form.getByRole("button", { name: "Add credential" }).click();
  const row = page.getByTestId(`credential-${name}`);
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: `Test ${name}` }).click();
  await expect(page.getByTestId(`credential-test-${name}`)).toContainText(`accepted the credential`);

  // Azure OpenAI needs its endpoint (no default host) and offers the API version.
  await type.selectOption({ label: "Azure OpenAI" });
  await expect(form.getByLabel("Endpoint")).toHaveAttribute("required", "");
  await expect(form.getByLabel("API version (optional)")).toBeVisible();
  await type.selectOption({ label: "Google Custom Search" });
  await expect(form.getByLabel("Search engine ID (cx)")).toBeVisible();
  await page.screenshot({ path: "test-results/credentials-1440.png", fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  // The row wraps: its buttons stay inside the width (scrolled to, not cut off at the right).
  const testButton = row.getByRole("button", { name: `Test ${name}` });
  await testButton.scrollIntoViewIfNeeded();
  await expect(testButton).toBeInViewport();
  const box = await testButton.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: "test-results/credentials-390.png", fullPage: true });
});
