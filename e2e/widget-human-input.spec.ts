import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { snap } from "./helpers";
import { adminAuth, createChatflow, MODEL_STUB, resetModel, startHostSite, widget } from "./fixtures/widget-support";
import { APP, PRODUCT_API, withProductApi } from "./servers";

// Issue 32, point 7: an agentflow that pauses at Human Input, answered by a visitor in the embed
// widget (on another site) and in the full-page public chat. The paused answer shows its
// description with Approve / Reject (and a feedback box); the choice resumes the same chat through
// the public prediction endpoint and the branch's answer streams in; a reload shows the decision
// taken. Each answer lists the run's steps, collapsed. The flow is flows/agentflow-refund-approval.json,
// loaded through the API with its HTTP node pointed at this run's product API.
test.describe.configure({ mode: "serial" });

let shop: Awaited<ReturnType<typeof startHostSite>>;
let flowId = "";
const DRAFT = "Draft: refund 129 EUR for order 42 to the original card.";

test.beforeAll(async ({ request }) => {
  shop = await startHostSite(APP);
  const file = path.resolve(import.meta.dirname, "../flows/agentflow-refund-approval.json");
  const flow = JSON.parse(withProductApi(fs.readFileSync(file, "utf8")));
  flowId = await createChatflow(request, {
    name: `Refund desk ${Date.now()}`,
    type: "AGENTFLOW",
    graph: flow.graph,
    isPublic: true,
    allowedOrigins: [shop.origin],
    chatbotConfig: { title: "Refund desk", theme: { primaryColor: "#0f766e" } },
  });
});
test.afterAll(async () => shop?.close());
test.beforeEach(async ({ request }) => {
  await resetModel(request);
  // The Draft refund node's model call: its text ends up in the Human Input's description.
  await request.post(`${MODEL_STUB}/__admin/script`, { data: [{ content: DRAFT }] });
});

async function productApiCalls(request: APIRequestContext): Promise<{ query: Record<string, string> }[]> {
  return (await (await request.get(`${PRODUCT_API}/__admin/requests`)).json()).requests;
}

/** The chat's run, as the Executions API lists it (one run per chat: a resume goes on with it). */
async function runsOfChat(request: APIRequestContext, chatId: string) {
  const res = await request.get(`/api/v1/executions?agentflowId=${flowId}&limit=100`, { headers: adminAuth });
  expect(res.status()).toBe(200);
  return ((await res.json()).data as { chatId: string; status: string }[]).filter((r) => r.chatId === chatId);
}

/** Asks for a refund and waits for the answer that pauses at Human Input; returns the prediction's body. */
async function askForRefund(page: Page) {
  const w = widget(page);
  const sent = page.waitForRequest((r) => r.url().includes(`/api/v1/prediction/${flowId}`) && r.method() === "POST");
  await w.input.fill("Please refund order 42");
  await page.keyboard.press("Enter");
  const body = (await sent).postDataJSON() as { chatId: string; question: string };
  // Found by its question: `.last()` would move on to the next answer.
  const paused = w.log.locator(".row.bot", { hasText: "Approve this refund?" });
  await expect(paused.getByRole("button", { name: "Approve" })).toBeEnabled({ timeout: 30_000 });
  return { body, paused };
}

test("in the widget on another site: the steps, Approve by keyboard, the proceed branch streams, a reload shows it approved", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const w = widget(page);
  await page.goto(`${shop.origin}/bubble/${flowId}`);
  await w.launcher.click();
  const { body: asked, paused } = await askForRefund(page);

  // The description: the draft the run wrote, then the node's question.
  await expect(paused).toContainText(DRAFT);
  await expect(paused).toContainText("Approve this refund?");
  await expect(paused.getByRole("button", { name: "Reject" })).toBeEnabled();
  await expect(paused.getByRole("group", { name: "Decision for Approve refund" })).toBeVisible();

  // The steps so far, collapsed until asked for.
  const steps = paused.locator("details.flow-steps");
  await expect(steps.locator("summary")).toHaveText("Steps (3)");
  expect(await steps.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
  await steps.locator("summary").focus();
  await page.keyboard.press("Enter");
  const list = steps.getByRole("list", { name: "Steps" });
  await expect(list.getByRole("listitem")).toHaveText([
    /^Start\s*done/,
    /^Draft refund\s*done/,
    /^Approve refund\s*paused/,
  ]);
  await snap(page, "widget-human-input-paused-1440");

  // Keyboard: from the feedback box, Tab reaches Approve and Enter sends it.
  const callsBefore = (await productApiCalls(request)).length;
  const resumed = page.waitForRequest((r) => r.url().includes(`/api/v1/prediction/${flowId}`) && r.method() === "POST");
  const response = page.waitForResponse((r) => r.url().includes(`/api/v1/prediction/${flowId}`));
  await paused.getByLabel("Feedback (optional)").focus();
  await page.keyboard.press("Tab");
  await expect(paused.getByRole("button", { name: "Approve" })).toBeFocused();
  await page.keyboard.press("Enter");
  const resume = (await resumed).postDataJSON();
  expect(resume.humanInput).toEqual({ type: "proceed", startNodeId: "approve" });
  expect(resume.question).toBeUndefined();
  expect(resume.chatId).toBe(asked.chatId);
  expect(resume.overrideConfig.sessionId).toBe(asked.chatId);
  expect((await response).headers()["content-type"]).toContain("text/event-stream");

  // The proceed branch: the HTTP node called the product API once, and its answer streamed in.
  const answer = w.lastBot;
  await expect(answer).toHaveAttribute("aria-busy", "false", { timeout: 30_000 });
  await expect(answer).toContainText(/Refund approved \(approved\)\. Product check answered 200: \{"products":/);
  expect(Number(await answer.getAttribute("data-tokens"))).toBeGreaterThan(0);
  const calls = await productApiCalls(request);
  expect(calls.length - callsBefore).toBe(1);
  expect(calls.at(-1)!.query).toMatchObject({ countryCode: "DE", q: "laptop" });
  await expect(w.root.locator(".row.user").last()).toHaveText("Approved");
  // The buttons are gone; the paused answer says what was decided. Its steps stayed open.
  await expect(w.root.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(paused.locator("[data-decided]")).toHaveText("Approved at “Approve refund”.");
  expect(await steps.evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
  // This answer's own steps: the decision, the product check, the reply (not the paused ones again).
  const answerSteps = answer.locator("details.flow-steps");
  await expect(answerSteps.locator("summary")).toHaveText("Steps (3)");
  await answerSteps.locator("summary").click();
  await expect(answerSteps.getByRole("listitem")).toHaveText([
    /^Approve refund\s*done/,
    /^Check the product\s*done/,
    /^Confirm\s*done/,
  ]);
  await snap(page, "widget-human-input-approved-1440");
  const [run] = await runsOfChat(request, asked.chatId);
  expect(run?.status).toBe("finished");
  expect(await runsOfChat(request, asked.chatId)).toHaveLength(1);

  // A reload: the decision is still taken, no buttons come back.
  await page.reload();
  await w.launcher.click();
  await expect(w.log).toContainText("Refund approved (approved)");
  await expect(w.log.locator("[data-decided]")).toHaveText("Approved at “Approve refund”.");
  await expect(w.root.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(w.root.getByRole("button", { name: "Reject" })).toHaveCount(0);
});

test("in the full-page public chat at 390 px, dark: Reject with feedback takes the reject branch; a reload shows it rejected", async ({
  browser,
  request,
}) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    colorScheme: "dark",
  });
  const page = await context.newPage();
  const w = widget(page);
  await page.goto(`/chat/${flowId}`);
  const { body: asked, paused } = await askForRefund(page);
  await expect(paused).toContainText("Approve this refund?");
  // Dark by the visitor's setting, and nothing wider than the phone.
  await expect(w.panel).toHaveCSS("background-color", "rgb(15, 23, 42)");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expect(paused.getByRole("button", { name: "Reject" })).toBeInViewport();
  await snap(page, "chat-human-input-paused-390-dark");

  const callsBefore = (await productApiCalls(request)).length;
  const resumed = page.waitForRequest((r) => r.url().includes(`/api/v1/prediction/${flowId}`) && r.method() === "POST");
  await paused.getByLabel("Feedback (optional)").fill("outside the 30-day window");
  await paused.getByRole("button", { name: "Reject" }).tap();
  expect((await resumed).postDataJSON().humanInput).toEqual({
    type: "reject",
    startNodeId: "approve",
    feedback: "outside the 30-day window",
  });
  await expect(w.lastBot).toHaveAttribute("aria-busy", "false", { timeout: 30_000 });
  await expect(w.lastBot).toContainText("Refund not approved: outside the 30-day window");
  await expect(w.lastBot.locator("details.flow-steps summary")).toHaveText("Steps (2)");
  const decision = w.root.locator(".row.user").last();
  await expect(decision).toContainText("Rejected");
  await expect(decision).toContainText("outside the 30-day window");
  await expect(paused.locator("[data-decided]")).toHaveText("Rejected at “Approve refund”.");
  // The reject branch calls no API.
  expect((await productApiCalls(request)).length).toBe(callsBefore);
  expect((await runsOfChat(request, asked.chatId)).map((r) => r.status)).toEqual(["finished"]);
  await snap(page, "chat-human-input-rejected-390-dark");

  await page.reload();
  await expect(w.log).toContainText("Refund not approved: outside the 30-day window");
  await expect(w.log.locator("[data-decided]")).toHaveText("Rejected at “Approve refund”.");
  await expect(w.root.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(w.root.getByLabel("Feedback (optional)")).toHaveCount(0);
  await context.close();
});
