import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { adminAuth, createChatflow, productSearchGraph } from "./fixtures/widget-support";

// Issue 14: the override allow-list in the Publish dialog hid selected entries (all params were chips
// in one small scrolling box, the selected ones somewhere inside it). Now the allowed params stay in
// view as chips with a remove button each; the others are offered below, filterable, with an add button.

test("allowed params stay visible and removable; others are added from a filterable list", async ({
  page,
  request,
}) => {
  const { graph } = productSearchGraph();
  const id = await createChatflow(request, {
    name: `Allow-list ${Date.now()}`,
    graph,
    overrideAllowList: ["temperature", "systemMessage"],
  });
  await signIn(page);
  await page.goto(`/chatflows/${id}`);
  await page.getByRole("button", { name: "Publish" }).click();
  const dialog = page.getByRole("dialog", { name: /Publish/ });
  const allowed = dialog.getByRole("list", { name: /^Allowed/ });
  const offered = dialog.getByRole("list", { name: "Add a param" });

  await expect(dialog.getByText("Allowed (2)")).toBeVisible();
  await expect(allowed.getByRole("listitem")).toHaveText(["temperature✕", "systemMessage✕"]);
  // Selected entries are not among the offered ones.
  await expect(offered.getByRole("button", { name: "Allow temperature" })).toHaveCount(0);

  // The offered params, last in the alphabet first: the ones a scrolling box of chips used to hide.
  const names = (await offered.getByRole("button").allTextContents()).map((t) => t.replace(/^\+/, ""));
  expect(names.length).toBeGreaterThan(8);
  const late = names.slice(-3);
  const filter = dialog.getByRole("searchbox", { name: "Filter params" });
  for (const name of late) {
    await filter.fill(name);
    await offered.getByRole("button", { name: `Allow ${name}`, exact: true }).click();
  }
  await filter.fill("");
  await expect(dialog.getByText("Allowed (5)")).toBeVisible();
  // Every allowed chip is shown: the list does not scroll or clip, each chip is inside its box.
  expect(await allowed.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  for (const name of ["temperature", "systemMessage", ...late]) {
    const chip = allowed.getByRole("listitem").filter({ hasText: name });
    await expect(chip).toBeVisible();
    await expect(chip.getByRole("button", { name: `Remove ${name}` })).toBeVisible();
  }
  await dialog.getByTestId("allowed-params").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/override-allowlist-1280.png" });

  // Removing puts the param back among the offered ones.
  await allowed.getByRole("button", { name: "Remove temperature" }).click();
  await expect(dialog.getByText("Allowed (4)")).toBeVisible();
  await expect(offered.getByRole("button", { name: "Allow temperature" })).toBeVisible();

  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog.getByText("Settings saved")).toBeVisible();
  const saved = await (await request.get(`/api/v1/chatflows/${id}`, { headers: adminAuth })).json();
  expect([...saved.overrideAllowList].sort()).toEqual(["systemMessage", ...late].sort());

  // Opened again, the saved selection is what shows; at 390 px too.
  await page.keyboard.press("Escape");
  await page.reload();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(dialog.getByText("Allowed (4)")).toBeVisible();
  await expect(allowed.getByRole("listitem")).toHaveCount(4);
  await dialog.getByTestId("allowed-params").scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/override-allowlist-390.png" });
});
