import { expect, test } from "@playwright/test";
import { cspViolations, signIn, snap } from "./helpers";

// Everything these journeys do must run under the studio's Content-Security-Policy.
test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

test("a builder signs in, creates a chatflow, and a revoked API key stops working", async ({ page, request }) => {
  await page.goto("/chatflows");
  await expect(page).toHaveURL(/\/signin/);
  await snap(page, "signin");
  await signIn(page);

  const name = `Support bot ${Date.now()}`;
  await page.getByLabel("New chatflow").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  // Create opens the new chatflow in the editor; it is in the list too.
  await expect(page).toHaveURL(/\/chatflows\/[0-9a-f-]{36}$/);
  await page.goto("/chatflows");
  const list = page.getByRole("list", { name: "Chatflows" });
  await expect(list.getByRole("link", { name, exact: true })).toBeVisible();
  await snap(page, "chatflows");

  await page.getByRole("link", { name: "API keys" }).click();
  await page.getByLabel("Key name").fill("e2e key");
  await page.getByLabel("Manage chatflows").check();
  await page.getByRole("button", { name: "Create key" }).click();
  const shown = page.getByTestId("new-api-key");
  await expect(shown).toBeVisible();
  const key = (await shown.textContent())!.trim();
  expect(key).toMatch(/^sy_[0-9a-f]{8}_/);
  await snap(page, "api-key-created");

  const ok = await request.get("/api/v1/chatflows", { headers: { authorization: `Bearer ${key}` } });
  expect(ok.status()).toBe(200);
  expect((await ok.json()).map((c: { name: string }) => c.name)).toContain(name);

  // Shown once: after a reload the key itself is nowhere on the page.
  await page.reload();
  await expect(page.getByTestId("new-api-key")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(key);

  await page.getByRole("button", { name: "Revoke e2e key" }).click();
  // The studio's own confirmation (not the browser's): it names the key and what revoking does.
  const ask = page.getByRole("dialog", { name: "Revoke “e2e key”?" });
  await expect(ask).toContainText("Apps using this key stop working at once.");
  await ask.getByRole("button", { name: "Revoke key" }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByTestId("key-row-e2e key")).toContainText("revoked");
  const refused = await request.get("/api/v1/chatflows", { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toEqual({
    error: { code: "unauthorized", message: expect.any(String), requestId: expect.any(String) },
  });
});

test("path tricks do not reach the API unauthenticated", async ({ request }) => {
  const upper = await request.get("/API/V1/chatflows");
  expect(upper.status()).toBe(404);
  expect((await upper.json()).error.code).toBe("not_found");
  // Refused as an unknown query parameter (the route takes none), never taken as a path.
  const trick = await request.get("/api/v1/apikey?/api/v1/ping");
  expect(trick.status()).toBe(400);
  const encoded = await request.get("/api/v1/%61pikey");
  expect([401, 404]).toContain(encoded.status());
});
