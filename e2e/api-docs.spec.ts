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
