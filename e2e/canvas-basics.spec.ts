import { expect, type Locator, type Page, test } from "@playwright/test";
import { cspViolations, signIn } from "./helpers";

// Issue 38, points 5 and 6: the Flowise basics of the canvas (Enter in the palette search, copy and
// paste across flows, the right-click menu, sticky notes) and new nodes landing in view, free of
// overlaps, at 1440 and 390 px.
test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

type Box = { x: number; y: number; width: number; height: number };
type SavedGraph = {
  nodes: { id: string; type: string; position: { x: number; y: number }; data: { inputs: Record<string, unknown> } }[];
  edges: { id?: string; source: string; target: string; sourceHandle: string; targetHandle: string }[];
  notes?: { id: string; text: string; position: { x: number; y: number } }[];
};

const SHOTS = "test-results/screens";

async function createFlow(page: Page, baseURL: string, name: string, graph: SavedGraph) {
  const created = await page.request.post("/api/v1/chatflows", { headers: { origin: baseURL }, data: { name, graph } });
  expect(created.status()).toBe(201);
  return (await created.json()).id as string;
}

async function savedGraph(page: Page, id: string): Promise<SavedGraph> {
  return (await (await page.request.get(`/api/v1/chatflows/${id}`)).json()).graph as SavedGraph;
}

/** A small flow: memory into a conversation chain, with values in their fields. */
const memoryAndChain: SavedGraph = {
  nodes: [
    { id: "memory", type: "bufferMemory", position: { x: 0, y: 0 }, data: { inputs: { windowSize: 7 } } },
    {
      id: "conversation",
      type: "conversationChain",
      position: { x: 380, y: 0 },
      data: { inputs: { systemMessage: "Answer like a pirate." } },
    },
  ],
  edges: [
    {
      id: "memory-conversation-memory",
      source: "memory",
      sourceHandle: "memory:out:memory",
      target: "conversation",
      targetHandle: "conversation:in:memory",
    },
  ],
};

async function openEditor(page: Page, id: string) {
  await page.goto(`/chatflows/${id}`);
  await expect(page.getByTestId("canvas")).toBeVisible();
  // The test chat beside the canvas is not what these tests look at.
  const testChat = page.getByRole("button", { name: "Test chat", exact: true });
  if ((await testChat.getAttribute("aria-pressed")) === "true") await testChat.click();
}

const nodes = (page: Page) => page.locator(".react-flow__node");
const node = (page: Page, id: string) => page.locator(`.react-flow__node[data-id="${id}"]`);
const header = (n: Locator) => n.getByRole("heading").first();
const ids = (page: Page) => nodes(page).evaluateAll((els) => els.map((el) => el.getAttribute("data-id") ?? ""));
const selectedIds = (page: Page) =>
  page.locator(".react-flow__node.selected").evaluateAll((els) => els.map((el) => el.getAttribute("data-id") ?? ""));

/** Whether `inner` lies wholly inside `outer` (one pixel of slack for the zoom's rounding). */
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 1 &&
  inner.y >= outer.y - 1 &&
  inner.x + inner.width <= outer.x + outer.width + 1 &&
  inner.y + inner.height <= outer.y + outer.height + 1;

function overlapping(boxes: (Box & { id: string })[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i], boxes[j]];
      if (a.x + 1 < b.x + b.width && b.x + 1 < a.x + a.width && a.y + 1 < b.y + b.height && b.y + 1 < a.y + a.height)
        out.push(`${a.id} × ${b.id}`);
    }
  return out;
}

const boxes = (page: Page) =>
  nodes(page).evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { id: el.getAttribute("data-id") ?? "", x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );

/** Waits until the node is wholly inside the canvas (a pan that brings it into view animates). */
async function expectInView(page: Page, id: string) {
  const canvas = (await page.getByTestId("canvas").boundingBox())!;
  await expect
    .poll(async () => {
      const b = await node(page, id).boundingBox();
      return !!b && inside(b, canvas);
    }, `${id} wholly inside the canvas`)
    .toBe(true);
}

test("Enter in the palette search adds the first match, in view", async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const id = await createFlow(page, baseURL!, `Palette Enter ${Date.now()}`, { nodes: [], edges: [] });
  await openEditor(page, id);
  const search = page.getByRole("searchbox", { name: "Search nodes" });
  await search.fill("buffer mem");
  // The match Enter adds is marked while searching.
  await expect(page.locator('[data-enter-target="true"]')).toHaveCount(1);
  await expect(page.locator('[data-enter-target="true"]')).toHaveAttribute("data-testid", "palette-bufferMemory");
  await page.screenshot({ path: `${SHOTS}/canvas-basics-palette-enter-1440.png` });
  await search.press("Enter");
  await expect(nodes(page)).toHaveCount(1);
  expect(await ids(page)).toEqual(["bufferMemory_0"]);
  await expectInView(page, "bufferMemory_0");
  await expect(node(page, "bufferMemory_0")).toHaveClass(/selected/);
  // No match: Enter adds nothing.
  await search.fill("no such node anywhere");
  await search.press("Enter");
  await expect(page.getByText("No node matches")).toBeVisible();
  await expect(nodes(page)).toHaveCount(1);
});

test("Ctrl+C / Ctrl+V copy nodes with their edges and inputs, in this flow and into another, undoable", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const source = await createFlow(page, baseURL!, `Copy source ${Date.now()}`, memoryAndChain);
  const target = await createFlow(page, baseURL!, `Paste target ${Date.now()}`, { nodes: [], edges: [] });
  await openEditor(page, source);
  await expect(nodes(page)).toHaveCount(2);
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);

  await header(node(page, "memory")).click();
  await header(node(page, "conversation")).click({ modifiers: ["Control"] });
  expect((await selectedIds(page)).sort()).toEqual(["conversation", "memory"]);
  await page.keyboard.press("Control+c");
  await expect(page.getByText("Copied 2 nodes.")).toBeVisible();

  // Pasted in the same flow: fresh ids, the edge between them, their inputs, selected, in view, not on top.
  await page.keyboard.press("Control+v");
  await expect(nodes(page)).toHaveCount(4);
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);
  expect((await selectedIds(page)).sort()).toEqual(["bufferMemory_0", "conversationChain_0"]);
  await expect(node(page, "bufferMemory_0").getByLabel("Window size")).toHaveValue("7");
  await expectInView(page, "bufferMemory_0");
  await expectInView(page, "conversationChain_0");
  expect(overlapping(await boxes(page))).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/canvas-basics-pasted-1440.png` });

  // One undo step takes the paste back, redo brings it again.
  await page.keyboard.press("Control+z");
  await expect(nodes(page)).toHaveCount(2);
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  await page.keyboard.press("Control+Shift+z");
  await expect(nodes(page)).toHaveCount(4);

  // Into another flow (the copy is kept by the browser): the ids start over there.
  await openEditor(page, target);
  await expect(page.getByText("The flow is empty")).toBeVisible();
  await page.getByTestId("canvas").click({ position: { x: 200, y: 200 } });
  await page.keyboard.press("Control+v");
  await expect(nodes(page)).toHaveCount(2);
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  await expectInView(page, "bufferMemory_0");
  await expectInView(page, "conversationChain_0");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-state")).toContainText("All changes saved");
  const saved = await savedGraph(page, target);
  expect(saved.nodes.map((n) => [n.id, n.type, n.data.inputs])).toEqual([
    ["bufferMemory_0", "bufferMemory", { windowSize: 7 }],
    ["conversationChain_0", "conversationChain", { systemMessage: "Answer like a pirate." }],
  ]);
  expect(saved.edges).toEqual([
    expect.objectContaining({
      source: "bufferMemory_0",
      target: "conversationChain_0",
      sourceHandle: "bufferMemory_0:out:memory",
      targetHandle: "conversationChain_0:in:memory",
    }),
  ]);
  await page.screenshot({ path: `${SHOTS}/canvas-basics-pasted-other-flow-1440.png` });
});

test("the right-click menu: copy, duplicate, delete on a node, paste and add a note on the canvas; keys and Escape", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const id = await createFlow(page, baseURL!, `Menu ${Date.now()}`, memoryAndChain);
  await openEditor(page, id);
  await expect(nodes(page)).toHaveCount(2);

  // On a node: the menu opens at the pointer, the first command focused; Escape closes it.
  const memory = node(page, "memory");
  await header(memory).click({ button: "right" });
  const nodeMenu = page.getByRole("menu", { name: "Node actions" });
  await expect(nodeMenu).toBeVisible();
  await expect(nodeMenu.getByRole("menuitem")).toHaveText([/^Copy/, /^Duplicate/, /^Delete/]);
  await expect(nodeMenu.getByRole("menuitem", { name: /Copy/ })).toBeFocused();
  await expect(memory).toHaveClass(/selected/);
  await page.screenshot({ path: `${SHOTS}/canvas-basics-node-menu-1440.png` });
  await page.keyboard.press("Escape");
  await expect(nodeMenu).toBeHidden();
  await expect(nodes(page)).toHaveCount(2);

  // Duplicate from the menu.
  await header(memory).click({ button: "right" });
  await nodeMenu.getByRole("menuitem", { name: /Duplicate/ }).click();
  await expect(nodeMenu).toBeHidden();
  await expect(nodes(page)).toHaveCount(3);
  await expect(node(page, "bufferMemory_0")).toHaveClass(/selected/);

  // From the keyboard: Shift+F10 on the focused node, arrows, Enter; the focus comes back to the node.
  await node(page, "bufferMemory_0").focus();
  await page.keyboard.press("Shift+F10");
  await expect(nodeMenu).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(nodeMenu.getByRole("menuitem", { name: /Delete/ })).toBeFocused();
  await page.keyboard.press("ArrowDown"); // wraps round
  await expect(nodeMenu.getByRole("menuitem", { name: /Copy/ })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(nodeMenu).toBeHidden();
  await expect(node(page, "bufferMemory_0")).toBeFocused();
  await page.keyboard.press("Shift+F10");
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await expect(nodeMenu).toBeHidden();
  await expect(nodes(page)).toHaveCount(2);
  await expect(node(page, "bufferMemory_0")).toHaveCount(0);
  // Deleting from the menu is one undo step like the Delete key.
  await page.keyboard.press("Control+z");
  await expect(nodes(page)).toHaveCount(3);

  // Copy from the menu, then paste from the canvas's menu at the spot clicked.
  await header(node(page, "conversation")).click({ button: "right" });
  await nodeMenu.getByRole("menuitem", { name: /Copy/ }).click();
  await expect(page.getByText("Copied 1 node.")).toBeVisible();
  const canvas = page.getByTestId("canvas");
  const canvasBox = (await canvas.boundingBox())!;
  // Zoomed out a little, the top left corner is free (the flow was fitted into the middle).
  await page.getByRole("button", { name: "Zoom Out" }).click();
  await page.getByRole("button", { name: "Zoom Out" }).click();
  const spot = { x: 30, y: 30 };
  await canvas.click({ button: "right", position: spot });
  const paneMenu = page.getByRole("menu", { name: "Canvas actions" });
  await expect(paneMenu).toBeVisible();
  await expect(paneMenu.getByRole("menuitem")).toHaveText([/^Paste/, /^Add note/]);
  await page.screenshot({ path: `${SHOTS}/canvas-basics-pane-menu-1440.png` });
  // A click elsewhere closes it.
  await header(node(page, "memory")).click();
  await expect(paneMenu).toBeHidden();
  await canvas.click({ button: "right", position: spot });
  await paneMenu.getByRole("menuitem", { name: /Paste/ }).click();
  await expect(nodes(page)).toHaveCount(4);
  const pasted = (await node(page, "conversationChain_0").boundingBox())!;
  // Its top left is at the spot clicked, and it is in view.
  expect(Math.abs(pasted.x - (canvasBox.x + spot.x))).toBeLessThan(2);
  expect(Math.abs(pasted.y - (canvasBox.y + spot.y))).toBeLessThan(2);
  await expectInView(page, "conversationChain_0");
  expect(overlapping(await boxes(page))).toEqual([]);

  // A sticky note, written at once, moved by its bar, saved with the flow, removed.
  // Bottom left, clear of the nodes (in the middle) and of the problems panel (top right).
  const noteSpot = { x: 100, y: canvasBox.height - 260 };
  await canvas.click({ button: "right", position: noteSpot });
  await paneMenu.getByRole("menuitem", { name: /Add note/ }).click();
  const note = page.getByTestId("canvas-note");
  await expect(note).toHaveCount(1);
  await expect(note.getByLabel("Note text")).toBeFocused();
  await page.keyboard.type("Ask the team before changing the memory.");
  const before = (await note.boundingBox())!;
  expect(Math.abs(before.x - (canvasBox.x + noteSpot.x))).toBeLessThan(2);
  const bar = note.getByText("Note", { exact: true });
  const barBox = (await bar.boundingBox())!;
  await page.mouse.move(barBox.x + 5, barBox.y + 5);
  await page.mouse.down();
  await page.mouse.move(barBox.x + 65, barBox.y + 45, { steps: 4 });
  await page.mouse.up();
  const after = (await note.boundingBox())!;
  expect(after.x - before.x).toBeGreaterThan(30);
  expect(after.y - before.y).toBeGreaterThan(20);
  await page.screenshot({ path: `${SHOTS}/canvas-basics-note-1440.png` });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-state")).toContainText("All changes saved");
  const saved = await savedGraph(page, id);
  expect(saved.notes).toEqual([
    { id: "note_0", text: "Ask the team before changing the memory.", position: expect.any(Object) },
  ]);
  await openEditor(page, id);
  await expect(page.getByTestId("canvas-note").getByLabel("Note text")).toHaveValue(
    "Ask the team before changing the memory.",
  );
  await page.getByTestId("canvas-note").getByRole("button", { name: "Remove note" }).click();
  await expect(page.getByTestId("canvas-note")).toHaveCount(0);

  // The toolbar's Add note (the keyboard's way) puts a note in view, its text field focused.
  await page.getByRole("toolbar", { name: "Editor" }).getByRole("button", { name: "Add note" }).click();
  await expect(page.getByTestId("canvas-note")).toHaveCount(1);
  await expect(page.getByTestId("canvas-note").getByLabel("Note text")).toBeFocused();
  const added = (await page.getByTestId("canvas-note").boundingBox())!;
  expect(inside(added, (await canvas.boundingBox())!)).toBe(true);
});

for (const width of [1440, 390]) {
  test(`nodes added from the palette land wholly in view, free of overlaps (${width} px)`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await signIn(page);
    const id = await createFlow(page, baseURL!, `In view ${width} ${Date.now()}`, memoryAndChain);
    await openEditor(page, id);
    await expect(nodes(page)).toHaveCount(2);
    const palette = page.getByRole("complementary", { name: "Node palette" });
    const toolbar = page.getByRole("toolbar", { name: "Editor" });
    for (let i = 0; i < 5; i++) {
      if (width === 390) {
        await toolbar.getByRole("button", { name: "Nodes" }).click();
        await expect(palette).toBeVisible();
      }
      await page.getByTestId("palette-chatOpenAICompatible").click();
      // On a phone the palette covers the canvas: it closes so the new node is seen.
      if (width === 390) await expect(palette).toBeHidden();
      const added = `chatOpenAICompatible_${i}`;
      await expect(node(page, added)).toBeVisible();
      await expectInView(page, added);
      const all = await boxes(page);
      expect(overlapping(all), `after adding ${added}`).toEqual([]);
      if (i === 0 || i === 4) await page.screenshot({ path: `${SHOTS}/canvas-basics-added-${i}-${width}.png` });
    }
  });
}
