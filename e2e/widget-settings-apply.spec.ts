import { expect, test } from "@playwright/test";
import { signIn, snap } from "./helpers";
import { APP } from "./servers";
import { adminAuth, createChatflow, productSearchGraph, widget } from "./fixtures/widget-support";

// Issue 38, point 1: the Publish dialog says, where each setting is made, when it reaches visitors.
// The chatbot's settings (title, welcome, starters…) apply at once, with no new draft, on a flow whose
// published version stays; the override allow-list belongs to a version and says "publish it".
test.describe.configure({ mode: "serial" });

let flowId = "";

test.beforeAll(async ({ request }) => {
  const { graph, overrideAllowList } = productSearchGraph();
  flowId = await createChatflow(request, {
    name: `Apply at once ${Date.now()}`,
    graph,
    overrideAllowList,
    isPublic: true,
    chatbotConfig: { title: "Old title" },
  });
  const published = await request.post(`/api/v1/chatflows/${flowId}/publish`, {
    headers: adminAuth,
    data: { version: 1 },
  });
  expect(published.status(), await published.text()).toBe(200);
});

test("chatbot settings saved on a published flow are live at once, with no new draft (1440 px)", async ({
  page,
  browser,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish/ });
  await expect(dialog.getByTestId("published-version")).toContainText("Published: version 1");
  // Said where the choice is made: a summary, and a tag on each part.
  const form = dialog.getByRole("form", { name: "Publish settings" });
  await expect(form.getByTestId("applies-summary")).toContainText(
    "apply to the widget and the chat page as soon as you save",
  );
  await expect(
    form
      .getByRole("group", { name: /^Chatbot/ })
      .getByTestId("applies-now")
      .first(),
  ).toHaveText("Applies at once");
  await expect(form.getByRole("group", { name: /^Override allow-list/ }).getByTestId("applies-publish")).toHaveText(
    "Applies when you publish",
  );
  const speech = form.locator("label").filter({ has: page.getByRole("checkbox", { name: "Speech-to-text" }) });
  await expect(speech.getByTestId("applies-publish")).toBeVisible();

  await dialog.getByLabel("Chatbot title").fill("Live Guide");
  await dialog.getByLabel("Welcome message").fill("Hello from the live settings!");
  await dialog.getByLabel("Starter prompts").fill("Laptops in Germany?");
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog.getByRole("status").filter({ hasText: "Settings saved" })).toHaveText(
    "Settings saved: live now on the widget and the chat page.",
  );
  // No silent new draft: still version 1, published.
  await expect(dialog.getByTestId("published-version")).toContainText("Published: version 1");
  await expect(dialog.getByTestId("published-version")).toContainText("Draft: version 1.");
  const saved = await (await page.request.get(`/api/v1/chatflows/${flowId}`)).json();
  expect(saved).toMatchObject({ version: 1, publishedVersion: 1, chatbotConfig: { title: "Live Guide" } });
  await form.getByRole("button", { name: "Save settings" }).scrollIntoViewIfNeeded();
  await snap(page, "publish-settings-applies-1440");

  // A visitor: the full-page chat and the widget's config show the new settings now.
  const visitor = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await visitor.goto(`${APP}/chat/${flowId}`);
  await expect(visitor).toHaveTitle("Live Guide");
  const w = widget(visitor);
  await expect(w.root.getByRole("region", { name: "Live Guide" })).toBeVisible();
  await expect(w.log).toContainText("Hello from the live settings!");
  await expect(w.root.getByRole("button", { name: "Laptops in Germany?" })).toBeVisible();
  const config = await (await visitor.request.get(`${APP}/api/v1/public-chatbotConfig/${flowId}`)).json();
  expect(config).toMatchObject({ title: "Live Guide", welcomeMessage: "Hello from the live settings!" });
  await visitor.close();
});

test("at 390 px the dialog says which settings wait for a publish, and a changed allow-list makes a draft", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish/ });
  const form = dialog.getByRole("form", { name: "Publish settings" });
  const summary = form.getByTestId("applies-summary");
  await summary.scrollIntoViewIfNeeded();
  await expect(summary).toBeInViewport();
  await expect(summary).toContainText("saving them makes a new draft, which visitors get when you publish it");
  expect(await summary.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await snap(page, "publish-settings-applies-390");

  // Allow one more param: a run setting, so the save is a new draft that waits for a publish.
  const offered = form.getByTestId("offered-params").getByRole("button").first();
  await offered.scrollIntoViewIfNeeded();
  await offered.click();
  await form.getByRole("button", { name: "Save settings" }).click();
  const status = form.getByRole("status");
  await expect(status).toContainText(
    "Settings saved. The override allow-list change is in draft version 2: publish it to apply it",
  );
  await status.scrollIntoViewIfNeeded();
  await expect(status).toBeInViewport();
  await snap(page, "publish-settings-draft-390");
  await expect(dialog.getByTestId("published-version")).toContainText("Published: version 1");
  await expect(dialog.getByTestId("published-version")).toContainText("Draft: version 2");
  // The chatbot settings saved before stay live whatever version is published.
  const config = await (await page.request.get(`/api/v1/public-chatbotConfig/${flowId}`, { headers: {} })).json();
  expect(config.title).toBe("Live Guide");
});
