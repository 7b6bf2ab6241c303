import { expect, test } from "@playwright/test";
import config from "../playwright.config";
import { snap } from "./helpers";
import { APP } from "./servers";
import {
  adminAuth,
  createChatflow,
  holdPredictions,
  MODEL_STUB,
  PNG_1x1,
  productSearchGraph,
  resetModel,
  startHostSite,
  widget,
} from "./fixtures/widget-support";

// The embed widget on plain pages served from other origins than the app, against the real
// product-search agent (scripted model stub + demo product API started by playwright.config.ts).
test.describe.configure({ mode: "serial" });
// A fake microphone, so voice input records real audio without a device or a permission prompt.
test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [
      ...(config.use?.launchOptions?.args ?? []),
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
    ],
  },
});

let shop: Awaited<ReturnType<typeof startHostSite>>;
let stranger: Awaited<ReturnType<typeof startHostSite>>;
let flowId = "";

test.beforeAll(async ({ request }) => {
  [shop, stranger] = await Promise.all([startHostSite(APP), startHostSite(APP)]);
  const { graph, chatbotConfig, overrideAllowList } = productSearchGraph();
  flowId = await createChatflow(request, {
    name: `Widget product search ${Date.now()}`,
    graph,
    overrideAllowList,
    isPublic: true,
    allowedOrigins: [shop.origin],
    chatbotConfig: { ...chatbotConfig, title: "Gadget Shop assistant", theme: { primaryColor: "#0f766e" } },
    speechToText: { enabled: true, baseUrl: `${MODEL_STUB}/v1` },
  });
});
test.afterAll(async () => Promise.all([shop?.close(), stranger?.close()]));
test.beforeEach(async ({ request }) => resetModel(request));

test("a tester chats on another site: streaming, stop, tools, session kept across reloads, new chat", async ({
  page,
  request,
}) => {
  const w = widget(page);
  await page.goto(`${shop.origin}/bubble/${flowId}`);
  await expect(w.launcher).toBeVisible();
  // The host page's `button { background: red !important }` and `textarea { display: none }` stay outside.
  await expect(w.launcher).toHaveCSS("background-color", "rgb(15, 118, 110)");
  await snap(page, "widget-bubble");

  // Keyboard: Tab reaches the bubble, Enter opens with focus in the message box, Escape closes.
  await page.keyboard.press("Tab");
  await expect(w.launcher).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(w.input).toBeFocused();
  await expect(w.root.getByRole("dialog", { name: "Gadget Shop assistant" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(w.panel).toBeHidden();
  await expect(w.launcher).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(w.log).toContainText("Tell me what you are looking for");
  await expect(w.root.getByRole("button", { name: "Find me a laptop under 1500 in Germany" })).toBeVisible();

  // Typing state and Stop while the answer is on its way.
  const release = await holdPredictions(page);
  await w.input.fill("hello there");
  await page.keyboard.press("Enter");
  await expect(w.root.getByRole("status", { name: "Assistant is typing" })).toBeVisible();
  await w.stop.click();
  await expect(w.lastBot).toContainText("(stopped)");
  await expect(w.send).toBeVisible();
  await release();

  // A real answer: tokens stream over SSE, the tool call is shown collapsed.
  const response = page.waitForResponse(
    (r) => r.url().includes("/api/v1/prediction/") && r.request().method() === "POST",
  );
  await w.input.fill("find me a laptop under 1500 in Germany");
  await w.send.click();
  expect((await response).headers()["content-type"]).toContain("text/event-stream");
  await expect(w.lastBot).toHaveAttribute("aria-busy", "false", { timeout: 30_000 });
  // The demo product API's laptops in Germany, priced in euros, reached the answer.
  await expect(w.lastBot).toContainText(/Laptop.*EUR/);
  expect(Number(await w.lastBot.getAttribute("data-tokens"))).toBeGreaterThan(1);
  const tools = w.lastBot.locator("details.tools");
  await expect(tools.locator("summary")).toHaveText("Used tool: product_search");
  expect(await tools.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
  await tools.locator("summary").click();
  await expect(tools.locator("pre").first()).toContainText("laptop");

  await w.input.fill("my name is Ada");
  await page.keyboard.press("Enter");
  await expect(w.lastBot).toContainText("Nice to meet you, Ada");
  await snap(page, "widget-open-chat");

  // Reload: the conversation is still there and the server remembers the same session.
  await page.reload();
  await w.launcher.click();
  await expect(w.log).toContainText("my name is Ada");
  await expect(w.log).toContainText(/Laptop.*EUR/);
  await w.input.fill("what is my name?");
  await page.keyboard.press("Enter");
  await expect(w.lastBot).toContainText("Your name is Ada");

  // Stored as EXTERNAL messages, visible to the Message API (and so the Conversations view).
  const stored = await (await request.get(`/api/v1/chatmessage/${flowId}`, { headers: adminAuth })).json();
  expect(stored.length).toBeGreaterThanOrEqual(6);
  expect(new Set(stored.map((m: { chatType: string }) => m.chatType))).toEqual(new Set(["EXTERNAL"]));

  // New chat: a fresh session that knows nothing.
  await w.root.getByRole("button", { name: "New chat" }).click();
  await expect(w.log).not.toContainText("my name is Ada");
  await expect(w.root.getByRole("button", { name: "Find me a laptop under 1500 in Germany" })).toBeVisible();
  await w.input.fill("what is my name?");
  await page.keyboard.press("Enter");
  await expect(w.lastBot).toContainText("I don't know your name yet");
});

test("the chat fills a phone's width", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const w = widget(page);
  await page.goto(`${shop.origin}/bubble/${flowId}`);
  await snap(page, "widget-mobile-bubble");
  await w.launcher.click();
  await w.root.getByRole("button", { name: "Find me a laptop under 1500 in Germany" }).click();
  await expect(w.lastBot).toContainText(/Laptop.*EUR/, { timeout: 30_000 });
  const box = (await w.panel.boundingBox())!;
  expect(box.width).toBe(390);
  expect(box.x).toBe(0);
  await expect(w.input).toBeInViewport();
  await snap(page, "widget-mobile");
  await context.close();
});

test("full-page mode renders Markdown safely, and a failed request can be retried", async ({ page, request }) => {
  const w = widget(page);
  await page.goto(`${shop.origin}/full/${flowId}`);
  await expect(w.launcher).toHaveCount(0);
  await expect(w.panel).toBeVisible();
  const answer =
    '**ZenBook Pro** at [the shop](https://shop.example/zenbook). <img src=x onerror="window.pwned=1"> [x](javascript:window.pwned=2)';
  await request.post(`${MODEL_STUB}/__admin/script`, { data: [{ content: answer }] });
  await w.input.fill("tell me about the zenbook");
  await page.keyboard.press("Enter");
  await expect(w.lastBot.locator("strong")).toHaveText("ZenBook Pro");
  const link = w.lastBot.getByRole("link", { name: "the shop" });
  await expect(link).toHaveAttribute("href", "https://shop.example/zenbook");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", /noopener/);
  await expect(w.lastBot).toContainText('<img src=x onerror="window.pwned=1">');
  await expect(w.lastBot.locator("img:not(.avatar)")).toHaveCount(0);
  await expect(w.lastBot.getByRole("link")).toHaveCount(1);
  expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  // init({ overrideConfig }) reached the flow: the page's temperature (allow-listed) went to the model.
  const { requests } = await (await request.get(`${MODEL_STUB}/__admin/requests`)).json();
  expect(requests.at(-1).body.temperature).toBe(0.15);
  await snap(page, "widget-full-page");

  // The network fails once: the error is shown with Retry, which sends the question again.
  await resetModel(request);
  await page.route("**/api/v1/prediction/**", (route) => route.abort("connectionrefused"));
  await w.input.fill("thanks for the link");
  await page.keyboard.press("Enter");
  await expect(w.root.getByRole("alert")).toContainText("Couldn't reach the chatbot");
  await page.unroute("**/api/v1/prediction/**");
  await w.root.getByRole("button", { name: "Retry" }).click();
  await expect(w.lastBot).toContainText('You said: "thanks for the link"');
  await expect(w.root.getByRole("button", { name: "Retry" })).toHaveCount(0);
});

test("an image reaches the model as an image part; a voice message is transcribed and answered", async ({
  page,
  request,
}) => {
  const w = widget(page);
  await page.goto(`${shop.origin}/bubble/${flowId}`);
  await w.launcher.click();
  await w.root
    .locator('input[type="file"]')
    .setInputFiles({ name: "desk.png", mimeType: "image/png", buffer: PNG_1x1 });
  await expect(w.root.getByRole("img", { name: "desk.png" })).toBeVisible();
  await w.input.fill("what is in this picture?");
  await page.keyboard.press("Enter");
  await expect(w.lastBot).toContainText("I see 1 image");
  const { requests } = await (await request.get(`${MODEL_STUB}/__admin/requests`)).json();
  const chats = requests.filter((r: { path: string }) => r.path === "/v1/chat/completions");
  const parts = chats
    .at(-1)
    .body.messages.flatMap((m: { content: unknown }) => (Array.isArray(m.content) ? m.content : []));
  expect(parts.find((p: { type: string }) => p.type === "image_url")?.image_url.url).toMatch(
    /^data:image\/png;base64,/,
  );

  // Voice: record from the (fake) microphone, send, see the transcription as the question.
  const mic = w.root.getByRole("button", { name: "Record voice message" });
  await mic.click();
  await expect(w.root.getByRole("button", { name: "Stop recording and send" })).toHaveAttribute("aria-pressed", "true");
  await w.root.getByRole("button", { name: "Stop recording and send" }).click();
  await expect(w.lastBot).toContainText(/Laptop.*EUR/, { timeout: 30_000 });
  await expect(w.root.locator(".row.user").last()).toContainText("find me a laptop under 1500 in Germany");
  const after = (await (await request.get(`${MODEL_STUB}/__admin/requests`)).json()).requests;
  expect(after.some((r: { path: string }) => r.path === "/v1/audio/transcriptions")).toBe(true);
});

test("a page on an origin that is not allowed is refused, and the widget says why", async ({ page, request }) => {
  const w = widget(page);
  await page.goto(`${stranger.origin}/bubble/${flowId}`);
  await w.launcher.click();
  await expect(w.banner).toContainText("not enabled on this website");
  await expect(w.input).toBeDisabled();
  await expect(w.root.getByRole("button", { name: "Attach image" })).toBeDisabled();
  await expect(w.root.getByRole("button", { name: "Find me a laptop under 1500 in Germany" })).toHaveCount(0);
  await snap(page, "widget-refused-origin");
  // The browser gets no CORS headers for it, and the server answers 403 to that Origin anyway.
  const direct = await page.evaluate(async (url) => {
    try {
      await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"question":"hi"}' });
      return "answered";
    } catch {
      return "blocked";
    }
  }, `${APP}/api/v1/prediction/${flowId}`);
  expect(direct).toBe("blocked");
  const res = await request.post(`/api/v1/prediction/${flowId}`, {
    headers: { origin: stranger.origin },
    data: { question: "hi" },
  });
  expect(res.status()).toBe(403);
});

test("the 61st request in a minute under a limit of 60 gets 429, and the widget explains it", async ({
  page,
  request,
}) => {
  const { graph } = productSearchGraph();
  const limited = await createChatflow(request, {
    name: `Rate limited ${Date.now()}`,
    graph,
    isPublic: true,
    allowedOrigins: [shop.origin],
    rateLimit: { max: 60, windowSec: 60 },
    chatbotConfig: {
      title: "Left-hand helper",
      theme: { position: "left", avatarUrl: `data:image/png;base64,${PNG_1x1.toString("base64")}` },
    },
  });
  const ask = () =>
    request.post(`/api/v1/prediction/${limited}`, { headers: { origin: shop.origin }, data: { question: "hi" } });
  for (let i = 1; i <= 60; i++) expect((await ask()).status(), `request ${i}`).toBe(200);
  const refused = await ask();
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  expect((await refused.json()).error.code).toBe("rate_limited");

  // The browser on the same address shares the limit: the widget shows the wait and offers Retry.
  const w = widget(page);
  await page.goto(`${shop.origin}/bubble/${limited}`);
  // Theme: this chatflow's bubble sits bottom-left and its header shows the avatar image.
  await expect(w.root.locator(".shell.left")).toHaveCount(1);
  expect((await w.launcher.boundingBox())!.x).toBeLessThan(100);
  await w.launcher.click();
  await expect(w.root.getByRole("dialog", { name: "Left-hand helper" }).locator("header img.avatar")).toHaveAttribute(
    "src",
    /^data:image\/png/,
  );
  await w.input.fill("hello");
  await page.keyboard.press("Enter");
  await expect(w.root.getByRole("alert")).toContainText(/Too many messages right now\. Try again in \d+ s\./);
  await expect(w.root.getByRole("button", { name: "Retry" })).toBeVisible();
  await snap(page, "widget-rate-limited");
});
