import { expect, test } from "@playwright/test";
import { cspViolations, signIn } from "./helpers";

// Issue 13: the studio's API reference renders Swagger UI from /api/v1/openapi.json under the
// studio's own Content-Security-Policy (no allowance added for it), with Swagger UI's files served
// from our origin.

test("the API reference lists the documented routes and runs under the studio's CSP", async ({ page, request }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Studio" }).getByRole("link", { name: "API", exact: true }).click();
  await expect(page).toHaveURL(/\/api-docs$/);
  const ui = page.getByTestId("swagger-ui");
  await expect(ui.getByText("Switchyard API")).toBeVisible();
  await expect(ui.getByText("/api/v1/prediction/{id}").first()).toBeVisible();
  await expect(ui.getByText("/api/v1/chatflows").first()).toBeVisible();
  expect(cspViolations(page)).toEqual([]);

  const script = await request.get("/swagger-ui/swagger-ui-bundle.js");
  expect(script.status()).toBe(200);
  expect(script.headers()["content-type"]).toContain("javascript");
  expect(script.headers()["cache-control"]).toContain("immutable");
  expect((await request.get("/swagger-ui/package.json")).status()).toBe(404);
  const doc = await request.get("/api/v1/openapi.json");
  expect((await doc.json()).openapi).toBe("3.1.0");
});

// Issue 33: the reference is readable without an account (API_DOCS_PUBLIC, on by default).
test("the API reference is readable without an account", async ({ page }) => {
  await page.goto("/api-docs");
  await expect(page).toHaveURL(/\/api-docs$/);
  const ui = page.getByTestId("swagger-ui");
  await expect(ui.getByText("Switchyard API")).toBeVisible();
  await expect(ui.getByText("/api/v1/openai/chat/completions").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
});

// Issue 38, point 10: in dark mode the reference stays readable (Swagger UI has no dark theme: it is
// a light panel there, its titles and operations at 4.5:1 or better), at 1440 and 390 px.
test("dark mode: the API reference's titles and operations read at 4.5:1 or better", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/api-docs");
    await expect(page.locator("html")).toHaveClass(/dark/);
    const ui = page.getByTestId("swagger-ui");
    await expect(ui.locator(".opblock-summary-path").first()).toBeVisible();
    const ratios = await ui.evaluate((panel) => {
      const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
      const lum = (c: string) => {
        const [r, g, b] = rgb(c).map((v) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const background = getComputedStyle(panel).backgroundColor;
      const ratio = (el: Element | null) => {
        if (!el) return 0;
        const [a, b] = [lum(getComputedStyle(el).color), lum(background)].sort((x, y) => y - x);
        return (a + 0.05) / (b + 0.05);
      };
      return {
        title: ratio(panel.querySelector(".info .title")),
        tag: ratio(panel.querySelector(".opblock-tag")),
        path: ratio(panel.querySelector(".opblock-summary-path")),
        description: ratio(panel.querySelector(".opblock-summary-description")),
      };
    });
    for (const [what, r] of Object.entries(ratios)) expect(r, what).toBeGreaterThanOrEqual(4.5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width + 1);
    await page.screenshot({ path: `test-results/screens/api-docs-dark-${width}.png` });
  }
});
