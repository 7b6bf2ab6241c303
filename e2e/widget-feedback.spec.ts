import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { signIn, snap } from "./helpers";
import {
  adminAuth,
  createChatflow,
  productSearchGraph,
  resetModel,
  startHostSite,
  widget,
} from "./fixtures/widget-support";
import { APP } from "./servers";

// Issue 38, point 2: "Ask for feedback (thumbs up / down)" in our own widget (on another site) and
// in the full-page chat (/chat/{id}, at phone width). A tester rates an answer, adds a comment,
// then changes the rating; each is stored as Flowise's feedback (read back through the API).
test.describe.configure({ mode: "serial" });

let shop: Awaited<ReturnType<typeof startHostSite>>;
let flowId = "";
/** The full-page chat's session, rated up with a comment (read in Conversations by the last test). */
let pageChatId = "";

async function publicFlow(request: APIRequestContext, feedback: boolean) {
  const { graph, chatbotConfig, overrideAllowList } = productSearchGraph();
  return createChatflow(request, {
    name: `Thumbs ${feedback ? "on" : "off"} ${Date.now()}`,
    graph,
    overrideAllowList,
    isPublic: true,
    allowedOrigins: [shop.origin],
    chatbotConfig: { ...chatbotConfig, title: "Gadget Shop assistant", chatFeedback: { status: feedback } },
  });
}

test.beforeAll(async ({ request }) => {
  shop = await startHostSite(APP);
  flowId = await publicFlow(request, true);
});
test.afterAll(async () => shop?.close());
test.beforeEach(async ({ request }) => resetModel(request));

/** Asks a question and waits for the whole answer; returns the chat id the widget sent. */
async function ask(page: Page, question: string): Promise<string> {
  const w = widget(page);
  const sent = page.waitForRequest((r) => r.url().includes("/api/v1/prediction/") && r.method() === "POST");
  await w.input.fill(question);
  await page.keyboard.press("Enter");
  const { chatId } = (await sent).postDataJSON() as { chatId: string };
  await expect(w.lastBot).toHaveAttribute("aria-busy", "false", { timeout: 30_000 });
  await expect(w.lastBot).toContainText("Hello");
  return chatId;
}

/** axe's serious and critical violations inside the widget, as "rule: targets" lines. */
async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include("[data-switchyard-chatflow]").analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The chat's feedback as admins read it (GET /api/v1/feedback/{chatflowid}?chatId=…). */
async function storedFeedback(request: APIRequestContext, id: string, chatId: string) {
  const res = await request.get(`/api/v1/feedback/${id}?chatId=${encodeURIComponent(chatId)}`, { headers: adminAuth });
  expect(res.status()).toBe(200);
  return (await res.json()) as { id: string; messageId: string; rating: string; content: string }[];
}

test("a tester rates an answer in the widget on another site, comments, and changes the rating", async ({
  page,
  request,
}) => {
  const w = widget(page);
  await page.goto(`${shop.origin}/bubble/${flowId}`);
  await w.launcher.click();
  const chatId = await ask(page, "hello there");
  const answer = w.lastBot;
  const up = answer.getByRole("button", { name: "Helpful", exact: true });
  const down = answer.getByRole("button", { name: "Not helpful" });
  await expect(answer.getByRole("group", { name: "Rate this answer" })).toBeVisible();
  await expect(up).toHaveAttribute("aria-pressed", "false");
  // The welcome message is no stored answer: nothing to rate.
  await expect(w.root.getByRole("group", { name: "Rate this answer" })).toHaveCount(1);

  const rated = page.waitForResponse((r) => r.url().endsWith(`/api/v1/feedback/${flowId}`));
  await up.click();
  expect((await rated).status()).toBe(200);
  await expect(up).toHaveAttribute("aria-pressed", "true");
  const comment = answer.getByRole("textbox", { name: "Tell us more (optional)" });
  await expect(comment).toBeFocused();
  await snap(page, "widget-feedback-comment");
  expect(await axeViolations(page)).toEqual([]);
  await comment.fill("Quick and clear");
  await answer.getByRole("button", { name: "Send" }).click();
  await expect(answer).toContainText("“Quick and clear”");
  await expect(answer.getByRole("status")).toHaveText("Thanks for your feedback");
  await expect(up).toBeFocused();
  const [first] = await storedFeedback(request, flowId, chatId);
  expect(first).toMatchObject({ rating: "THUMBS_UP", content: "Quick and clear" });

  // A second thumb changes the rating (PUT /feedback/{id}): still one feedback for the answer.
  const changed = page.waitForRequest((r) => r.url().endsWith(`/api/v1/feedback/${first.id}`));
  await down.click();
  expect((await changed).method()).toBe("PUT");
  await expect(down).toHaveAttribute("aria-pressed", "true");
  await expect(up).toHaveAttribute("aria-pressed", "false");
  await answer.getByRole("button", { name: "No thanks" }).click();
  await expect(down).toBeFocused();
  expect(await storedFeedback(request, flowId, chatId)).toEqual([
    expect.objectContaining({
      id: first.id,
      messageId: first.messageId,
      rating: "THUMBS_DOWN",
      content: "Quick and clear",
    }),
  ]);
  await snap(page, "widget-feedback-changed");
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await axeViolations(page)).toEqual([]);
  await snap(page, "widget-feedback-dark");

  // A reload shows the thumb given.
  await page.reload();
  await w.launcher.click();
  await expect(w.lastBot.getByRole("button", { name: "Not helpful" })).toHaveAttribute("aria-pressed", "true");
});

test("the full-page chat at phone width takes thumbs too, and shows none when feedback is off", async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const w = widget(page);
  await page.goto(`${APP}/chat/${flowId}`);
  const chatId = await ask(page, "hello");
  const down = w.lastBot.getByRole("button", { name: "Not helpful" });
  await down.tap();
  const comment = w.lastBot.getByRole("textbox", { name: "Tell us more (optional)" });
  await comment.fill("I wanted a laptop");
  await w.lastBot.getByRole("button", { name: "Send" }).tap();
  await expect(w.lastBot).toContainText("“I wanted a laptop”");
  const [stored] = await storedFeedback(request, flowId, chatId);
  expect(stored).toMatchObject({ rating: "THUMBS_DOWN", content: "I wanted a laptop" });
  // Nothing spills over the phone's width.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await snap(page, "chat-page-feedback-390");

  await w.lastBot.getByRole("button", { name: "Helpful", exact: true }).tap();
  await expect(w.lastBot.getByRole("button", { name: "Helpful", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(comment).toBeVisible();
  expect(await storedFeedback(request, flowId, chatId)).toEqual([
    expect.objectContaining({ id: stored.id, rating: "THUMBS_UP", content: "I wanted a laptop" }),
  ]);
  pageChatId = chatId;

  // The same flow with feedback off: the answer has no thumbs.
  const off = await publicFlow(request, false);
  await page.goto(`${APP}/chat/${off}`);
  await ask(page, "hello");
  await expect(w.root.getByRole("group", { name: "Rate this answer" })).toHaveCount(0);
  await context.close();
});

test("admins see the thumbs and comments in Conversations", async ({ page }) => {
  expect(pageChatId).not.toBe("");
  await signIn(page);
  await page.goto(`/chatflows/${flowId}/conversations`);
  await page.getByRole("list", { name: "Sessions" }).getByTestId(`session-${pageChatId}`).click();
  const transcript = page.getByRole("list", { name: "Transcript" });
  await expect(transcript.getByTestId(/^feedback-/)).toHaveText("👍 Helpful · “I wanted a laptop”");
  await snap(page, "conversations-widget-feedback");
});
