import { expect, test } from "@playwright/test";
import { bigFlowGraph } from "../bench/big-flow";
import { cspViolations, signIn, snap } from "./helpers";

// The 300-node flow of the editor benchmark (60 product-search agents) opens as a map of cards,
// every node can be reached and edited, and an edit saves. Not timed: speed is bench/editor.ts.
test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

test("a 300-node flow opens as cards, every group is reachable and a field edit saves", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page);
  const graph = bigFlowGraph();
  const created = await page.request.post("/api/v1/chatflows", { data: { name: `Big flow ${Date.now()}`, graph } });
  expect(created.ok()).toBe(true);
  const id = (await created.json()).id as string;

  await page.goto(`/chatflows/${id}`);
  // Opening zoom: each node a card with its label (no forms), edges drawn between them.
  const cards = page.locator('.react-flow__node article[data-detail="card"]');
  await expect(cards.first()).toBeVisible({ timeout: 60_000 });
  await expect(page.locator(".react-flow__node input")).toHaveCount(0);
  // The cards' edges: one path of 300 curves under the cards (CardEdges), not React Flow's edges.
  await expect(page.getByTestId("card-edges").locator("path")).toHaveAttribute("d", /^(M[^M]+){300}$/);
  await expect(page.locator(".react-flow__edge")).toHaveCount(0);
  // No background dots under cards (2 px apart at this zoom: a wash that cost a raster per pan frame).
  await expect(page.locator(".react-flow__background")).toHaveCount(0);
  // Dragging a card: its edges are a path of their own, redrawn per frame; the others' path keeps
  // its exact `d` until the drop, then all are one path again, following the card.
  const agentEdges = graph.edges.filter((e) => e.source === "toolAgent_13" || e.target === "toolAgent_13").length;
  expect(agentEdges).toBeGreaterThan(0);
  const edgePaths = page.getByTestId("card-edges").locator("path");
  const before = await edgePaths.first().getAttribute("d");
  const grip = await page.locator('.react-flow__node[data-id="toolAgent_13"] article header').boundingBox();
  await page.mouse.move(grip!.x + 5, grip!.y + 5);
  await page.mouse.down();
  await page.mouse.move(grip!.x + 25, grip!.y + 15, { steps: 4 });
  const dragged = page.getByTestId("card-edges").locator("path[data-dragged]");
  await expect(dragged).toHaveAttribute("d", new RegExp(`^(M[^M]+){${agentEdges}}$`));
  const still = page.getByTestId("card-edges").locator("path:not([data-dragged])");
  await expect(still).toHaveAttribute("d", new RegExp(`^(M[^M]+){${300 - agentEdges}}$`));
  const stillDuring = await still.getAttribute("d");
  await page.mouse.move(grip!.x + 45, grip!.y + 25, { steps: 4 });
  expect(await still.getAttribute("d")).toBe(stillDuring);
  await page.mouse.up();
  await expect(dragged).toHaveCount(0);
  await expect(edgePaths).toHaveAttribute("d", /^(M[^M]+){300}$/);
  expect(await edgePaths.getAttribute("d")).not.toBe(before);
  await page.keyboard.press("ControlOrMeta+z");
  await expect(edgePaths).toHaveAttribute("d", before!);
  await expect(page.locator('.react-flow__node[data-id="chainTool_13"] article h3')).toHaveText("Chain Tool");
  await expect(page.locator('.react-flow__node[data-id="toolAgent_13"] article')).toHaveAttribute(
    "aria-label",
    "Tool Agent node",
  );
  await snap(page, "big-flow-overview");

  // Room for the canvas: the test chat is closed on a first visit.
  await expect(page.getByRole("complementary", { name: "Test chat" })).toHaveCount(0);
  const panel = page.getByTestId("problems-panel");
  // Groups across the whole map (every fifth, and the last): the problems panel names each agent
  // (60 ending nodes); its button brings the agent into view at a readable zoom, drawn with its form.
  for (const g of [...Array.from({ length: 12 }, (_, i) => i * 5), 59]) {
    await panel.getByRole("button", { name: `Select node Tool Agent (toolAgent_${g})` }).click();
    const agent = page.locator(`.react-flow__node[data-id="toolAgent_${g}"]`);
    await expect(agent.locator("article")).not.toHaveAttribute("data-detail", "card");
    await expect(agent.getByRole("button", { name: /additional parameters/ })).toBeAttached();
  }

  // The last group, every node of it: the panel folds away, and a drag of the empty pane moves the
  // view 650 px right (from the agent to the chat model at the group's left).
  await panel.getByRole("button", { name: /^\d+ problems?/ }).click();
  const start = await page.evaluate(() => {
    const r = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
    for (let y = r.bottom - 40; y > r.y + 40; y -= 10)
      for (let x = r.x + 60; x < r.x + 300; x += 10)
        if (document.elementFromPoint(x, y)?.classList.contains("react-flow__pane")) return { x, y };
    throw new Error("no empty spot on the pane");
  });
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 650, start.y, { steps: 12 });
  await page.mouse.up();
  for (const type of ["chatOpenAICompatible", "openApiChain", "chainTool", "bufferMemory"]) {
    const node = page.locator(`.react-flow__node[data-id="${type}_59"]`);
    await expect(node.locator("article")).toBeAttached();
    await expect(node.locator("article")).not.toHaveAttribute("data-detail", "card");
  }
  await expect(page.locator(".react-flow__background")).toHaveCount(1);
  await snap(page, "big-flow-zoomed-in");

  // Typing into a field of the big flow updates it, and Save stores it.
  const name = page.locator('[id="chainTool_59-name"]');
  await name.scrollIntoViewIfNeeded();
  await name.click();
  await page.keyboard.press("End");
  await page.keyboard.type("_renamed");
  await expect(name).toHaveValue("product_search_59_renamed");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(/Saved as version/)).toBeVisible();
  const saved = (await (await page.request.get(`/api/v1/chatflows/${id}`)).json()).graph as typeof graph;
  expect(saved.nodes.find((n) => n.id === "chainTool_59")?.data.inputs).toMatchObject({
    name: "product_search_59_renamed",
  });
  expect(saved.nodes).toHaveLength(300);

  // Zoomed back out to the map: cards again.
  await page.getByRole("button", { name: "Fit view", exact: true }).click();
  await expect(cards.first()).toBeVisible();
  await expect(page.locator(".react-flow__node input")).toHaveCount(0);
  await page.request.delete(`/api/v1/chatflows/${id}`);
});
