import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./helpers";
import { adminAuth } from "./fixtures/widget-support";

// Issue 38, point 12: at 390 px nothing of the studio is wider than the screen or hidden without a
// hint — every page of the navigation in sight, the Domains "Analyse with" select inside the screen
// even for a long chatflow name, and the editor's title readable.

const WIDTH = 390;

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test.use({ viewport: { width: WIDTH, height: 844 } });

test("the studio navigation shows every page at 390 px, none in a sideways scroll", async ({ page }) => {
  await signIn(page);
  await page.goto("/chatflows");
  const nav = page.getByRole("navigation", { name: "Studio" });
  for (const name of ["Chatflows", "Executions", "Credentials", "API keys", "Domains", "Users", "Queue", "API"]) {
    const link = nav.getByRole("link", { name, exact: true });
    await expect(link).toBeInViewport({ ratio: 1 });
  }
  expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
  await page.screenshot({ path: "test-results/phone-width-nav.png" });
});

test("the Domains analyse select stays inside the screen with a long chatflow name", async ({ page, request }) => {
  const name = `A chatflow with a very long name that would widen a phone's page ${Date.now()}`;
  const created = await request.post("/api/v1/chatflows", { headers: adminAuth, data: { name } });
  expect(created.status()).toBe(201);
  await signIn(page);
  await page.goto("/domains/manage");
  const select = page.getByLabel("Analysing chatflow");
  await expect(select).toBeVisible();
  await select.selectOption({ label: name });
  const box = (await select.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
  expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
  await page.screenshot({ path: "test-results/phone-width-domains.png" });
  await request.delete(`/api/v1/chatflows/${((await created.json()) as { id: string }).id}`, { headers: adminAuth });
});

test("the editor's title keeps a readable width at 390 px", async ({ page, request }) => {
  const flows = (await (await request.get("/api/v1/chatflows", { headers: adminAuth })).json()) as {
    id: string;
    name: string;
  }[];
  const flow = flows.find((f) => f.name === "Product search agent")!;
  await signIn(page);
  await page.goto(`/chatflows/${flow.id}`);
  const title = page.getByRole("toolbar", { name: "Editor" }).getByRole("heading", { level: 1 });
  await expect(title).toHaveText(flow.name);
  // The whole name of the example fits (it was cut to a few letters beside the commands).
  expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect((await title.boundingBox())!.width).toBeGreaterThan(200);
  expect(await pageWidth(page)).toBeLessThanOrEqual(WIDTH);
  await page.screenshot({ path: "test-results/phone-width-editor.png" });
});
