import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signIn, snap } from "./helpers";
import { adminAuth, createChatflow, MODEL_STUB, resetModel } from "./fixtures/widget-support";

// Issue 33: a flow's usage page. Three predictions against the scripted model, which reports its own
// token counts; with a price for its model, the page shows the requests, the tokens the model reported
// and the cost those tokens make at that price, and draws the daily charts, wide and on a phone.

const REPLIES = 3;
const PROMPT = 1200;
const COMPLETION = 300;
/** USD per million tokens, set for the stub's model. */
const PRICE = { inputPerMTok: 2.5, outputPerMTok: 10 };

const conversationGraph = () =>
  JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../flows/conversation.json"), "utf8")).graph;

/** No horizontal scrolling: the page fits its viewport. */
async function fitsWidth(page: Page) {
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    view: document.documentElement.clientWidth,
  }));
  expect(widths.scroll).toBeLessThanOrEqual(widths.view);
}

test.afterEach(async ({ request }) => {
  await resetModel(request);
  await request.put("/api/v1/usage/prices", { headers: adminAuth, data: { prices: [] } });
});

test("the usage page shows a flow's requests, reported tokens and cost, with charts, at 1440 and 390 px", async ({
  page,
  request,
}) => {
  const id = await createChatflow(request, { name: `Usage ${Date.now()}`, graph: conversationGraph() });
  const priced = await request.put("/api/v1/usage/prices", {
    headers: adminAuth,
    data: { prices: [{ model: "stub-model", ...PRICE }] },
  });
  expect(priced.status(), await priced.text()).toBe(200);
  const usage = { prompt_tokens: PROMPT, completion_tokens: COMPLETION };
  const scripted = Array.from({ length: REPLIES }, (_, i) => ({ content: `Answer ${i + 1}.`, usage }));
  expect((await request.post(`${MODEL_STUB}/__admin/script`, { data: scripted })).status()).toBe(200);
  for (let i = 0; i < REPLIES; i++) {
    const res = await request.post(`/api/v1/prediction/${id}`, {
      headers: adminAuth,
      data: { question: `Question ${i + 1}`, chatId: `usage-${i}` },
    });
    expect(res.status(), await res.text()).toBe(200);
    expect((await res.json()).text).toBe(`Answer ${i + 1}.`);
  }
  const cost = (REPLIES * (PROMPT * PRICE.inputPerMTok + COMPLETION * PRICE.outputPerMTok)) / 1e6;

  await signIn(page);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/chatflows/${id}/usage`);
    await expect(page.getByRole("heading", { name: /Usage · Usage / })).toBeVisible();
    const totals = page.getByTestId("usage-totals");
    const figure = (label: string) => totals.locator("div", { has: page.getByText(label, { exact: true }) }).last();
    await expect(figure("Requests")).toContainText(String(REPLIES));
    await expect(figure("Requests")).toContainText("0 failed");
    await expect(figure("Prompt tokens")).toContainText((REPLIES * PROMPT).toLocaleString("en-US"));
    await expect(figure("Completion tokens")).toContainText((REPLIES * COMPLETION).toLocaleString("en-US"));
    await expect(figure("Cost")).toContainText(`$${cost.toFixed(4)}`);
    await expect(figure("Cost")).not.toContainText("without a price");
    const charts = page.getByTestId("usage-daily-charts");
    await expect(charts.getByText("Tokens per day")).toBeVisible();
    await expect(charts.locator("svg.recharts-surface").first()).toBeVisible();
    await fitsWidth(page);
    await snap(page, `usage-${width}`);

    // Per model: the stub's model with its requests and tokens.
    await page.getByLabel("Group by").selectOption("model");
    const row = page.getByRole("table", { name: "Usage per model" }).getByRole("row", { name: /stub-model/ });
    await expect(row).toContainText(String(REPLIES));
    await expect(row).toContainText(
      `${(REPLIES * PROMPT).toLocaleString("en-US")} / ${(REPLIES * COMPLETION).toLocaleString("en-US")}`,
    );
    await fitsWidth(page);
  }
});
