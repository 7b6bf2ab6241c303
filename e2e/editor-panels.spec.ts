import { expect, type Page, test } from "@playwright/test";
import { cspViolations, signIn, snap } from "./helpers";

// Issue 38, point 7: a roomier canvas. The side panels remember whether they were open (the test
// chat is closed on a first visit), and a flow opens at a zoom where its node titles are readable,
// even beside the Versions panel, at 1440 and 390 px.
test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

/** Six nodes in a row, 2,200 flow units wide: fitted whole beside the Versions panel it was ~6 px text. */
const wideFlow = {
  nodes: Array.from({ length: 6 }, (_, i) => ({
    id: `n${i}`,
    type: "bufferMemory",
    position: { x: i * 380, y: 0 },
    data: { inputs: { windowSize: i + 1 } },
  })),
  edges: [],
};

async function createFlow(page: Page, baseURL: string) {
  const created = await page.request.post("/api/v1/chatflows", {
    headers: { origin: baseURL },
    data: { name: `Panels ${Date.now()}`, graph: wideFlow },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).id as string;
}

/** A node title's drawn height: its font size times the canvas zoom. */
async function titlePixels(page: Page, nodeId: string) {
  return page.evaluate((id) => {
    const title = document.querySelector(`.react-flow__node[data-id="${id}"] h3`);
    const viewport = document.querySelector(".react-flow__viewport");
    if (!title || !viewport) return 0;
    const zoom = new DOMMatrixReadOnly(getComputedStyle(viewport).transform).a;
    return Number.parseFloat(getComputedStyle(title).fontSize) * zoom;
  }, nodeId);
}

for (const width of [1440, 390]) {
  test(`at ${width} px the panels open as they were left and the text stays readable`, async ({ page, baseURL }) => {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    await signIn(page);
    const id = await createFlow(page, baseURL!);
    const chat = page.getByRole("complementary", { name: "Test chat" });
    const chatButton = page.getByRole("button", { name: "Test chat", exact: true });
    const load = async () => {
      await expect(page.locator('.react-flow__node[data-id="n0"]')).toBeVisible();
    };

    // A first visit: no test chat, the canvas gets the room.
    await page.goto(`/chatflows/${id}`);
    await load();
    await expect(chatButton).toHaveAttribute("aria-pressed", "false");
    await expect(chat).toHaveCount(0);
    await snap(page, `editor-panels-first-visit-${width}`);

    // Opened, it stays open after a reload … (on a phone, where a panel covers the whole editor, the
    // editor always opens on the canvas: nothing is reopened, and it is closed by hand).
    await chatButton.click();
    await expect(chat).toBeVisible();
    await page.reload();
    await load();
    if (width < 768) {
      await expect(chat).toHaveCount(0);
      await chatButton.click();
    }
    await expect(chat).toBeVisible();
    await expect(chatButton).toHaveAttribute("aria-pressed", "true");

    // … and closed, it stays closed.
    await chat.getByRole("button", { name: "Close test chat" }).click();
    await expect(chat).toHaveCount(0);
    await page.reload();
    await load();
    await expect(chat).toHaveCount(0);

    // A broken stored value is ignored: the editor opens with no panel.
    await page.evaluate(() => localStorage.setItem("switchyard-editor-panels", "{not json"));
    await page.reload();
    await load();
    await expect(chat).toHaveCount(0);

    // With Versions open (remembered too), the flow opens readable, its start in view.
    await page.getByRole("button", { name: "Versions", exact: true }).click();
    await expect(page.getByRole("complementary", { name: "Versions" })).toBeVisible();
    await page.reload();
    await load();
    if (width < 768) {
      await expect(page.getByRole("complementary", { name: "Versions" })).toHaveCount(0);
      await page.getByRole("button", { name: "Versions", exact: true }).click();
    }
    await expect(page.getByRole("complementary", { name: "Versions" })).toBeVisible();
    await expect.poll(() => titlePixels(page, "n0")).toBeGreaterThanOrEqual(10);
    const title = (await page.locator('.react-flow__node[data-id="n0"] h3').boundingBox())!;
    expect(title.height).toBeGreaterThanOrEqual(10);
    const canvas = (await page.getByTestId("canvas").boundingBox())!;
    const start = (await page.locator('.react-flow__node[data-id="n0"]').boundingBox())!;
    expect(start.x).toBeGreaterThanOrEqual(canvas.x);
    expect(start.x).toBeLessThan(canvas.x + canvas.width);
    expect(start.y).toBeGreaterThanOrEqual(canvas.y);
    await snap(page, `editor-panels-versions-${width}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
