import { expect, type Locator, test } from "@playwright/test";
import { signIn } from "./helpers";
import { APP } from "./servers";
import { createChatflow, productSearchGraph, resetModel, startHostSite, widget } from "./fixtures/widget-support";

// Issue 14: the chatbot's settings in the Publish dialog, their live preview, the widget on another
// site showing them, and the shareable full-page chat at /chat/{id}.
test.describe.configure({ mode: "serial" });

let shop: Awaited<ReturnType<typeof startHostSite>>;
let flowId = "";
let privateId = "";
const privateName = `Private ${Date.now()}`;

const shot = (page: import("@playwright/test").Page, name: string) =>
  page.screenshot({ path: `test-results/${name}.png`, fullPage: false });

/** The value of one of the widget's CSS custom properties (its shell element, inside the shadow root). */
const themeVar = (root: Locator, name: string) =>
  root.locator(".shell").evaluate((el, n) => getComputedStyle(el).getPropertyValue(n).trim(), name);

test.beforeAll(async ({ request }) => {
  shop = await startHostSite(APP);
  const { graph, overrideAllowList } = productSearchGraph();
  // A new flow: no chatbot settings at all (the example's are not used).
  flowId = await createChatflow(request, {
    name: `Chatbot settings ${Date.now()}`,
    graph,
    overrideAllowList,
    isPublic: true,
    allowedOrigins: [shop.origin],
  });
  privateId = await createChatflow(request, { name: privateName, graph });
});
test.afterAll(async () => shop?.close());
test.beforeEach(async ({ request }) => resetModel(request));

test("settings changed in the Publish dialog show in the preview, then on a host page", async ({ page, browser }) => {
  await signIn(page);
  await page.goto(`/chatflows/${flowId}`);
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish/ });
  const preview = dialog.getByTestId("widget-preview").locator("[data-switchyard-chatflow]");
  // Blank settings: the preview is titled with the chatflow's name.
  await expect(preview.getByRole("heading", { level: 2 })).toHaveText(/Chatbot settings/);
  // One heading for the embed part (the duplicate "Chat widget" is gone).
  await expect(dialog.getByText("Chat widget", { exact: true })).toHaveCount(0);
  await expect(dialog.getByText("Embed the chat widget")).toHaveCount(1);

  await dialog.getByLabel("Chatbot title").fill("Gadget Guide");
  await dialog.getByLabel("Welcome message").fill("Welcome to the gadget shop!");
  await dialog.getByLabel("Starter prompts").fill("Find me a laptop under 1500 in Germany\nHeadphones in the UK?");
  await dialog.getByLabel("Accent colour").fill("#be123c");
  await dialog.getByLabel("Widget position").selectOption("left");
  await expect(dialog.getByLabel("Show tool calls to visitors")).not.toBeChecked();

  // The live preview follows the unsaved values.
  await expect(preview.getByRole("heading", { level: 2 })).toHaveText("Gadget Guide");
  await expect(preview.getByRole("log", { name: "Conversation" })).toContainText("Welcome to the gadget shop!");
  await expect(preview.getByRole("button", { name: "Headphones in the UK?" })).toBeVisible();
  await expect.poll(() => themeVar(preview, "--sy-primary")).toBe("#be123c");
  // The full-page link, and the whole snippet visible (wrapped, not cut off).
  await expect(dialog.getByTestId("chat-link")).toHaveText(`${APP}/chat/${flowId}`);
  await expect(dialog.getByRole("button", { name: "Copy link" })).toBeVisible();
  const snippet = dialog.getByTestId("embed-snippet");
  expect(await snippet.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await shot(page, "chatbot-settings-dialog-1280");

  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog.getByText("Settings saved")).toBeVisible();
  const saved = await (await page.request.get(`/api/v1/chatflows/${flowId}`)).json();
  expect(saved.chatbotConfig).toMatchObject({
    title: "Gadget Guide",
    starterPrompts: ["Find me a laptop under 1500 in Germany", "Headphones in the UK?"],
    theme: { primaryColor: "#be123c", position: "left" },
    showToolCalls: false,
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "chatbot-settings-dialog-390");

  // A visitor on another site (no studio session) sees the saved settings.
  const visitor = await browser.newPage();
  const w = widget(visitor);
  await visitor.goto(`${shop.origin}/bubble/${flowId}`);
  await expect(w.launcher).toHaveCSS("background-color", "rgb(190, 18, 60)");
  await expect(w.root.locator(".shell")).toHaveClass(/left/);
  await w.launcher.click();
  await expect(w.root.getByRole("dialog", { name: "Gadget Guide" })).toBeVisible();
  await expect(w.log).toContainText("Welcome to the gadget shop!");
  await w.root.getByRole("button", { name: "Find me a laptop under 1500 in Germany" }).click();
  await expect(w.lastBot).toHaveAttribute("aria-busy", "false", { timeout: 30_000 });
  await expect(w.lastBot).toContainText(/Laptop/);
  // Tool calls are off: the visitor's answer carries none.
  await expect(w.lastBot.locator("details.tools")).toHaveCount(0);
  await shot(visitor, "chatbot-settings-host-page");
  await visitor.close();
});

test("the full-page chat at /chat/{id} works at 390 px without signing in", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const res = await page.goto(`${APP}/chat/${flowId}`);
  expect(res?.status()).toBe(200);
  await expect(page).toHaveTitle("Gadget Guide");
  const w = widget(page);
  await expect(w.root.getByRole("region", { name: "Gadget Guide" })).toBeVisible();
  await expect(w.log).toContainText("Welcome to the gadget shop!");
  // No banner: the app's own page needs no entry in the allowed origins.
  await expect(w.banner).toBeHidden();
  await w.input.fill("find me a laptop under 1500 in Germany");
  await w.send.click();
  await expect(w.lastBot).toHaveAttribute("aria-busy", "false", { timeout: 30_000 });
  await expect(w.lastBot).toContainText(/Laptop/);
  // It fills the narrow screen without sideways scrolling.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(w.send).toBeInViewport();
  await shot(page, "chatbot-full-page-390");
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, "chatbot-full-page-1280");
  await context.close();
});

// Issue 38, point 8: a private flow's link says it is not public (still HTTP 404, as the widget's
// config API answers for it), naming nothing to visitors; its signed-in owner learns how to share it.
// An unknown id gets the same page (it must not tell which ids exist); a path that is no id, the plain one.
test("a private chatflow's full-page chat says it is not public, as an unknown one does", async ({ browser }) => {
  for (const width of [1440, 390]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    const res = await page.goto(`${APP}/chat/${privateId}`);
    expect(res?.status()).toBe(404);
    const card = page.getByTestId("chat-not-public");
    await expect(card.getByRole("heading", { level: 1 })).toHaveText("This chat is not public");
    await expect(page).toHaveTitle("Chat not public");
    // Nothing about the flow: not its name, and no chat.
    expect(await page.content()).not.toContain(privateName);
    await expect(page.locator("[data-switchyard-chatflow]")).toHaveCount(0);
    await expect(card.getByRole("link", { name: "Sign in if you built it" })).toHaveAttribute(
      "href",
      `/signin?callbackUrl=${encodeURIComponent(`/chat/${privateId}`)}`,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, `chatbot-full-page-private-${width}`);
    // An unknown id gets the very same page (no telling which ids exist); a path that is no id, the plain one.
    const privateText = (await card.textContent()) ?? "";
    const unknown = await page.goto(`${APP}/chat/7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b`);
    expect(unknown?.status()).toBe(404);
    await expect(page.getByTestId("chat-not-public")).toHaveText(privateText);
    const notAnId = await page.goto(`${APP}/chat/not-an-id`);
    expect(notAnId?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByTestId("chat-not-public")).toHaveCount(0);
    await page.close();
  }
});

test("its signed-in owner sees which flow it is and how to make it public (1440 and 390 px)", async ({ page }) => {
  await signIn(page);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const res = await page.goto(`${APP}/chat/${privateId}`);
    expect(res?.status()).toBe(404);
    const card = page.getByTestId("chat-not-public");
    await expect(card.getByRole("heading", { level: 1 })).toHaveText(`“${privateName}” is private`);
    await expect(card).toContainText("turn on Public and save the settings");
    await expect(card).toContainText("No version is published yet");
    await expect(card.getByRole("link", { name: "Open the flow" })).toHaveAttribute("href", `/chatflows/${privateId}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, `chatbot-full-page-private-owner-${width}`);
  }
  await page.getByRole("link", { name: "Open the flow" }).click();
  await expect(page).toHaveURL(new RegExp(`/chatflows/${privateId}$`));
});
