import { expect, type Page, test } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";

const basic = { authorization: `Basic ${Buffer.from(`${E2E_ADMIN.email}:${E2E_ADMIN.password}`).toString("base64")}` };
import { cspViolations, signIn } from "./helpers";

test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

/** Screenshots at desktop and phone width, under test-results/ (looked at by hand). */
async function shots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/studio-basics-${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function fillSignIn(page: Page) {
  await page.getByLabel("E-mail").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("sign-in returns to the page asked for, and never to another site", async ({ page }) => {
  await page.goto("/domains/manage?sort=name");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fdomains%2Fmanage%3Fsort%3Dname$/);
  await fillSignIn(page);
  await expect(page).toHaveURL(/\/domains\/manage\?sort=name$/);

  await page.context().clearCookies();
  for (const evil of ["https://evil.example/", "//evil.example/x", "/\\evil.example"]) {
    await page.goto(`/signin?callbackUrl=${encodeURIComponent(evil)}`);
    await fillSignIn(page);
    await expect(page).toHaveURL(/^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/chatflows$/);
    await page.context().clearCookies();
  }
});

test("create opens the editor; duplicate and search in the list; a template becomes a new chatflow", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const tag = Date.now().toString(36);
  const name = `Basics ${tag}`;
  await page.getByLabel("New chatflow").fill(name);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/chatflows\/[0-9a-f-]{36}$/);
  await expect(page.getByText("The flow is empty")).toBeVisible();
  const flowId = page.url().split("/").pop();

  // The Conversations date filter says at once, in words, that the range is backwards.
  await page.goto(`/chatflows/${flowId}/conversations`);
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("startDate=2025-03-02")) asked.push(r.url());
  });
  await page.getByLabel("From").fill("2025-03-02");
  await page.getByLabel("To (inclusive)").fill("2025-03-01");
  await page.getByRole("button", { name: "Apply filters" }).click();
  // (Next's route announcer is an alert too: the note is the one with text about dates.)
  await expect(page.getByRole("alert").filter({ hasText: "start date" })).toHaveText(
    "The start date must not be after the end date.",
  );
  expect(asked).toEqual([]); // said by the page itself: no request (and no retried 400) behind it

  await page.goto("/chatflows");
  const list = page.getByRole("list", { name: "Chatflows" });
  await page.getByRole("button", { name: `Duplicate ${name}` }).click();
  await expect(list.getByRole("link", { name: `${name} (copy)`, exact: true })).toBeVisible();

  // Search filters the list by name (and description), any case, every word.
  await page.getByLabel("Search chatflows").fill(`basics ${tag.toUpperCase()}`);
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await page.getByLabel("Search chatflows").fill(`${tag} copy`);
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("link", { name: `${name} (copy)`, exact: true })).toBeVisible();
  await page.getByLabel("Search chatflows").fill(`no-such-flow-${tag}`);
  await expect(list.getByRole("listitem")).toHaveCount(0);
  await expect(page.getByText(`No chatflow matches “no-such-flow-${tag}”.`)).toBeVisible();
  await page.getByLabel("Search chatflows").fill(tag);
  await shots(page, "list");

  // Templates: the example flows; using one saves a new chatflow with its graph and opens it.
  await page.getByRole("button", { name: "New from template" }).click();
  const dialog = page.getByRole("dialog", { name: "Templates" });
  // Six chatflows and three agentflows (flows/*.json), each agentflow marked as one.
  await expect(dialog.getByRole("list", { name: "Switchyard examples" }).getByRole("listitem")).toHaveCount(9);
  await expect(dialog.getByText("Agentflow", { exact: true })).toHaveCount(3);
  await shots(page, "templates");
  await dialog.getByRole("button", { name: "Use template OpenAPI chain only" }).click();
  await expect(page).toHaveURL(/\/chatflows\/[0-9a-f-]{36}$/);
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  expect(await page.locator(".react-flow__node").count()).toBeGreaterThan(1);
  // The example itself is already a flow of that name: the copy is numbered, so the list tells them apart.
  const copyId = page.url().split("/").pop();
  const copy = (await (await page.request.get(`/api/v1/chatflows/${copyId}`)).json()) as { name: string };
  expect(copy.name).toMatch(/^OpenAPI chain only \(\d+\)$/);
});

test("a page that does not exist says so inside the studio frame", async ({ page }) => {
  await signIn(page);
  const res = await page.goto("/no-such-page-here");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Studio" })).toBeVisible();
  await shots(page, "404");
  await page.getByRole("link", { name: "Back to chatflows" }).click();
  await expect(page).toHaveURL(/\/chatflows$/);
});

test("the domains box splits by lines and commas only, and lists invalid names without adding them", async ({
  page,
}) => {
  await signIn(page);
  await page.goto("/domains/manage");
  const tag = Date.now().toString(36);
  await page.getByLabel("Add domains").fill(`not a domain\ngood-${tag}.example.com, other-${tag}.example.org`);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  const status = page.getByRole("status").filter({ hasText: "Added" });
  await expect(status).toContainText("Added 2, already known 0, invalid 1.");
  await expect(status.getByRole("listitem")).toHaveCount(1);
  await expect(status.getByRole("listitem")).toContainText("not a domain");
  await shots(page, "domains");
  await page.getByLabel("Search name or analysis").fill("not a domain");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("domains-total")).toContainText("0 domains");
});

test("a builder sees 'Admins only.' on Conversations, and no Export buttons there", async ({ page, request }) => {
  const builder = { email: `basics-builder-${Date.now()}@e2e.test`, password: "builder-pass-1" };
  const created = await request.post("/api/v1/users", {
    headers: basic,
    data: { ...builder, name: "Basics Builder", role: "builder" },
  });
  expect(created.status()).toBe(201);
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(builder.email);
  await page.getByLabel("Password").fill(builder.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/chatflows$/);
  await page.getByLabel("New chatflow").fill(`Builder flow ${Date.now()}`);
  await page.getByRole("button", { name: "Create" }).click();
  await expect(page).toHaveURL(/\/chatflows\/[0-9a-f-]{36}$/);
  await page.goto(`${page.url()}/conversations`);
  await expect(page.getByText("Admins only.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Export/ })).toHaveCount(0);
});
