import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";
import { MODEL_STUB as STUB } from "./servers";

const BUILDER = { email: `builder-${Date.now()}@e2e.test`, password: "builder-pass-1" };
const basic = { authorization: `Basic ${Buffer.from(`${E2E_ADMIN.email}:${E2E_ADMIN.password}`).toString("base64")}` };

const analysis = (summary: string) => ({
  content: JSON.stringify({ summary, category: "e-commerce", audience: "shoppers", riskNotes: [] }),
});

test("a builder imports a CSV of domains, analyses two with the example flow and filters by analysis", async ({
  page,
  request,
}) => {
  const created = await request.post("/api/v1/users", {
    headers: basic,
    data: { ...BUILDER, name: "Builder", role: "builder" },
  });
  expect(created.status()).toBe(201);
  // Builders run only their own chatflows: the admin hands the example analyst to this builder.
  const flows = (await (await request.get("/api/v1/chatflows", { headers: basic })).json()) as {
    id: string;
    name: string;
  }[];
  const analyst = flows.find((f) => f.name === "Domain Analyst")!;
  const transfer = await request.put(`/api/v1/chatflows/${analyst.id}`, {
    headers: basic,
    data: { ownerId: (await created.json()).id },
  });
  expect(transfer.status()).toBe(200);
  // The analyst's model answers are scripted: one JSON answer per domain.
  await request.post(`${STUB}/__admin/script`, {
    data: [analysis("Scripted summary one"), analysis("Scripted summary two")],
  });

  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(BUILDER.email);
  await page.getByLabel("Password").fill(BUILDER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/chatflows$/);
  await page.getByRole("link", { name: "Domains" }).click();
  await expect(page).toHaveURL(/\/domains\/manage$/);

  const tag = Date.now().toString(36);
  const csv = [
    "id,domain,owner",
    `1,alpha-${tag}.example.com,team`,
    `2,"beta-${tag}.example.org",team`,
    `3,gamma-${tag}.example.net,x`,
    `4,broken-${tag}.notatld,x`,
    `5,ALPHA-${tag}.example.com,dup`,
  ].join("\n");
  await page
    .getByLabel("Import CSV")
    .setInputFiles({ name: "domains.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText(
    "Added 3, already known 0, invalid 1, 1 duplicates merged",
  );

  await page.getByLabel("Search name or analysis").fill(tag);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("domains-total")).toContainText("3 domains");
  // The invalid name is reported with why, and not stored.
  await expect(page.getByRole("status").filter({ hasText: "Added" })).toContainText(
    `broken-${tag}.notatld: '.notatld' is not a known public suffix`,
  );
  await expect(page.getByTestId(`domain-broken-${tag}.notatld`)).toHaveCount(0);

  await page.getByLabel(`Select alpha-${tag}.example.com`).check();
  await page.getByLabel(`Select beta-${tag}.example.org`).check();
  await page.getByLabel("Analysing chatflow").selectOption({ label: "Domain Analyst" });
  await page.getByRole("button", { name: "Analyse selected (2)" }).click();
  await expect(page.getByRole("status", { name: "Analysis progress" })).toContainText("Finished: 2 of 2");
  await expect(page.getByTestId(`domain-alpha-${tag}.example.com`)).toContainText(/Scripted summary (one|two)/);
  await expect(page.getByTestId(`domain-beta-${tag}.example.org`)).toContainText("succeeded");

  await page.getByLabel("Analysis", { exact: true }).selectOption("analyzed");
  await expect(page.getByTestId("domains-total")).toContainText("2 domains");
  await expect(page.getByTestId(`domain-gamma-${tag}.example.net`)).toHaveCount(0);
  await page
    .getByTestId(`domain-alpha-${tag}.example.com`)
    .getByRole("button", { name: /Scripted summary/ })
    .click();
  await expect(page.getByText("shoppers")).toBeVisible();

  // Only gamma is left unanalysed (the invalid name was never stored). The list keeps the previous
  // filter's rows while the new ones load, so wait for the total of this filter, not any "2 domains".
  await page.getByLabel("Analysis", { exact: true }).selectOption("not_analyzed");
  await expect(page.getByTestId("domains-total")).toContainText("Page 1 of 1 · 1 domain ·");
  await expect(page.getByTestId(`domain-gamma-${tag}.example.net`)).toBeVisible();
  await page.screenshot({ path: "test-results/screens/domains.png", fullPage: true });

  // The same filter through the unversioned API.
  const api = await request.get(`/domains?hasAnalysis=true&searchTerm=${tag}`, { headers: basic });
  expect((await api.json()).pagination.total).toBe(2);
  await request.post(`${STUB}/__admin/reset`);
});
