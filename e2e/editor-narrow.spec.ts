import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { adminAuth } from "./fixtures/widget-support";

// Issue 14: the editor's top bar and the studio navigation at 390 px (a phone): everything reachable,
// nothing wider than the screen, the navigation not covered by the editor.

test("at 390 px the editor's bar fits: commands reachable, nothing cut off or covered", async ({ page, request }) => {
  const flows = (await (await request.get("/api/v1/chatflows", { headers: adminAuth })).json()) as {
    id: string;
    name: string;
  }[];
  const id = flows.find((f) => f.name === "Product search agent")!.id;
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto(`/chatflows/${id}`);
  await expect(page.locator(".react-flow__node").first()).toBeVisible();
  await page.screenshot({ path: "test-results/editor-narrow-390.png" });

  const toolbar = page.getByRole("toolbar", { name: "Editor" });
  // Nothing sticks out of the screen or the bar.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const bar = (await toolbar.boundingBox())!;
  for (const name of ["Back to chatflows", "Test chat", "Publish", "Save", "More commands"]) {
    const box = (await toolbar.getByRole(name === "Back to chatflows" ? "link" : "button", { name }).boundingBox())!;
    expect(box, name).not.toBeNull();
    expect(box.x, name).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, name).toBeLessThanOrEqual(390);
    expect(box.y, name).toBeGreaterThanOrEqual(bar.y - 1);
  }
  // The studio navigation stays above the editor (not covered by it).
  const nav = (await page.getByRole("navigation", { name: "Studio" }).boundingBox())!;
  expect(bar.y).toBeGreaterThanOrEqual(nav.y + nav.height - 1);
  await expect(page.getByRole("link", { name: "Chatflows", exact: true })).toBeVisible();

  // The commands that do not fit are in a menu, and they work from there.
  await toolbar.getByRole("button", { name: "More commands" }).click();
  const menu = page.getByRole("menu", { name: "More commands" });
  await expect(menu).toBeVisible();
  for (const item of [
    "Undo",
    "Redo",
    "Duplicate selection",
    "Delete selection",
    "Auto-layout",
    "Fit view",
    "Import JSON",
    "Export JSON",
  ])
    await expect(menu.getByRole("menuitem", { name: item })).toBeVisible();
  await page.screenshot({ path: "test-results/editor-narrow-390-menu.png" });
  await menu.getByRole("menuitem", { name: "Auto-layout" }).click();
  await expect(menu).toBeHidden();
  await expect(toolbar.getByTestId("save-state")).toContainText("Unsaved changes");

  // The palette is a panel over the canvas, opened and closed from the bar.
  const palette = page.getByRole("complementary", { name: "Node palette" });
  await expect(palette).toBeHidden();
  await toolbar.getByRole("button", { name: "Nodes" }).click();
  await expect(palette).toBeVisible();
  expect((await palette.boundingBox())!.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: "test-results/editor-narrow-390-palette.png" });
  await toolbar.getByRole("button", { name: "Nodes" }).click();
  await expect(palette).toBeHidden();

  // Test chat opens over the canvas.
  await toolbar.getByRole("button", { name: "Test chat" }).click();
  await expect(page.getByRole("complementary", { name: "Test chat" })).toBeVisible();
  await page.screenshot({ path: "test-results/editor-narrow-390-chat.png" });
});
