import { expect, type Page, test } from "@playwright/test";
import { createChatflow, productSearchGraph, startHostSite, widget } from "./fixtures/widget-support";
import { cspViolations, signIn } from "./helpers";
import { APP } from "./servers";

// Issue 14: code editor fields with an expand view, the node info panel, "Index saved files" on store
// nodes, and dark mode (system + toggle) in the studio and the widget.

test.afterEach(({ page }) => expect(cspViolations(page)).toEqual([]));

/** Screenshots at desktop and phone width, kept under test-results/. */
async function shots(page: Page, name: string) {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `test-results/${name}-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `test-results/${name}-390.png` });
  await page.setViewportSize(size);
}

/** A copy of a seeded example, so the example itself stays as loaded. */
async function copyOfExample(page: Page, baseURL: string, name: string): Promise<string> {
  const flows = (await (await page.request.get("/api/v1/chatflows")).json()) as { id: string; name: string }[];
  const example = flows.find((f) => f.name === name);
  expect(example, `the ${name} example is loaded on the first start`).toBeTruthy();
  const graph = (await (await page.request.get(`/api/v1/chatflows/${example!.id}`)).json()).graph;
  const created = await page.request.post("/api/v1/chatflows", {
    headers: { origin: baseURL },
    data: { name: `${name} copy ${Date.now()}`, graph },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).id as string;
}

/** The luminance (0 dark … 1 light) of an element's computed background, whatever colour syntax Chromium reports. */
async function backgroundLuminance(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const color = getComputedStyle(document.querySelector(sel)!).backgroundColor;
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  }, selector);
}

test("the OpenAPI spec is a YAML code editor with an expand view, and the info panel shows the node's help", async ({
  page,
  baseURL,
}) => {
  await signIn(page);
  const id = await copyOfExample(page, baseURL!, "OpenAPI chain only");
  await page.goto(`/chatflows/${id}`);
  const node = page.locator('article[data-node-type="openApiChain"]');
  const spec = node.getByRole("textbox", { name: "OpenAPI spec (YAML or JSON)", exact: true });
  // CodeMirror (loaded on demand) replaces the textarea: a contenteditable with the spec, YAML highlighted.
  await expect(node.locator(".cm-editor")).toBeVisible();
  await expect(spec).toHaveAttribute("contenteditable", "true");
  await expect(spec).toContainText("openapi:");

  // Expand: a dialog with a big editor on the same value; an edit there reaches the node and the flow.
  await node.getByRole("button", { name: "Expand OpenAPI spec (YAML or JSON)" }).click();
  const dialog = page.getByRole("dialog", { name: "OpenAPI spec (YAML or JSON)" });
  await expect(dialog).toBeVisible();
  const big = dialog.getByRole("textbox", { name: "OpenAPI spec (YAML or JSON)" });
  await expect(big).toContainText("openapi:");
  expect((await dialog.locator(".cm-editor").boundingBox())!.height).toBeGreaterThan(300);
  await shots(page, "editor-fields-expand");
  // One line (JSON is YAML too): fill() inserts text as typing would, and Enter would auto-indent.
  const edited = '{"openapi":"3.0.0","info":{"title":"Edited in the big editor","version":"1"},"paths":{}}';
  await big.fill(edited);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(spec).toContainText("Edited in the big editor");
  await expect(page.getByTestId("save-state")).toContainText("Unsaved changes");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("save-state")).toContainText("All changes saved");
  const saved = (await (await page.request.get(`/api/v1/chatflows/${id}`)).json()).graph.nodes as {
    type: string;
    data: { inputs: Record<string, unknown> };
  }[];
  expect(saved.find((n) => n.type === "openApiChain")!.data.inputs.spec).toBe(edited);

  // The info panel: the definition's description and each input's help.
  const defs = (await (await page.request.get("/api/v1/nodes")).json()) as {
    name: string;
    description: string;
    inputs: { name: string; label: string; description?: string }[];
  }[];
  const def = defs.find((d) => d.name === "openApiChain")!;
  await node.getByRole("button", { name: /^About / }).click();
  const info = node.getByRole("region", { name: "Node info" });
  await expect(info).toContainText(def.description);
  for (const input of def.inputs) {
    await expect(info).toContainText(input.label);
    if (input.description) await expect(info).toContainText(input.description);
  }
  await shots(page, "editor-fields-info");
  // It belongs to the selected node: clicking the empty canvas closes it.
  const empty = await page.evaluate(() => {
    const r = document.querySelector(".react-flow__pane")!.getBoundingClientRect();
    for (let y = r.top + 10; y < r.bottom; y += 20)
      for (let x = r.left + 10; x < r.right; x += 20)
        if (document.elementFromPoint(x, y)?.classList.contains("react-flow__pane")) return { x, y };
    return null;
  });
  expect(empty, "an empty spot on the canvas").not.toBeNull();
  await page.mouse.click(empty!.x, empty!.y);
  await expect(info).toBeHidden();
});

test("Index saved files on the Docs QA store uses the loaders' saved files and shows the counts", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const id = await copyOfExample(page, baseURL!, "Docs QA");
  // Hold the upsert until the progress state has been seen (and checked), then let it through.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/v1/vector/upsert/**", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/chatflows/${id}`);
  const store = page.locator('.react-flow__node[data-id="vectorStore"]');
  await expect(store.getByTestId("store-chunk-count")).toHaveText("0 chunks stored");
  // The example's chat model node sits over the store's lower half: selecting the store brings it to the front.
  await store.locator("header h3").click();
  const button = store.getByRole("button", { name: /^Index saved files/ });
  await button.click();
  await expect(store.getByRole("button", { name: "Indexing…" })).toBeDisabled();
  release();
  const result = store.getByTestId("store-upsert-result");
  await expect(result).toContainText(/Added [1-9]\d*, updated \d+, skipped \d+/, { timeout: 60_000 });
  // The count is read again after the result arrives: wait for that answer, not the one before.
  await expect(store.getByTestId("store-chunk-count")).not.toHaveText("0 chunks stored");
  const chunks = Number((await store.getByTestId("store-chunk-count").textContent())!.replace(/\D/g, ""));
  expect(chunks).toBeGreaterThan(0);
  const api = (await (await page.request.get(`/api/v1/vector/stores/${id}`)).json()) as {
    nodeId: string;
    chunks: number;
  }[];
  expect(api.find((s) => s.nodeId === "vectorStore")!.chunks).toBe(chunks);
  await store.scrollIntoViewIfNeeded();
  await shots(page, "editor-fields-index");
});

test("the studio follows the system's dark preference, and the toggle overrides it and persists", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page);
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  expect(await backgroundLuminance(page, "body")).toBeLessThan(0.15);
  await shots(page, "editor-fields-dark-list");

  const theme = page.getByRole("combobox", { name: "Theme" });
  await theme.selectOption("light");
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  expect(await backgroundLuminance(page, "body")).toBeGreaterThan(0.9);
  // Kept across a reload and applied before the app's scripts run (no flash).
  await page.reload({ waitUntil: "commit" });
  await page.waitForSelector("body", { state: "attached" });
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);

  // The toggle shows the saved choice once the page has hydrated.
  await expect(theme).toHaveValue("light");
  await page.emulateMedia({ colorScheme: "light" });
  await theme.selectOption("dark");
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.reload({ waitUntil: "commit" });
  await page.waitForSelector("body", { state: "attached" });
  expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);

  // The canvas in dark: React Flow and the code editor switch too.
  await expect(theme).toHaveValue("dark");
  await page
    .getByRole("list", { name: "Chatflows" })
    .getByRole("link", { name: /^OpenAPI chain only/ })
    .first()
    .click();
  await expect(page.locator(".react-flow.dark")).toBeVisible();
  await expect(page.locator(".cm-editor.cm-theme-dark, .cm-theme-dark .cm-editor").first()).toBeVisible();
  expect(await backgroundLuminance(page, 'article[data-node-type="openApiChain"]')).toBeLessThan(0.15);
  await shots(page, "editor-fields-dark-canvas");
  await page.getByRole("combobox", { name: "Theme" }).selectOption("system");
});

test("the widget follows prefers-color-scheme, unless its theme fixes a scheme", async ({ page, request }) => {
  const host = await startHostSite(APP);
  try {
    const { graph, chatbotConfig, overrideAllowList } = productSearchGraph();
    const base = { graph, overrideAllowList, isPublic: true, allowedOrigins: [host.origin] };
    const auto = await createChatflow(request, {
      ...base,
      name: `Dark widget ${Date.now()}`,
      chatbotConfig: { ...chatbotConfig, title: "Dark shop" },
    });
    const light = await createChatflow(request, {
      ...base,
      name: `Light widget ${Date.now()}`,
      chatbotConfig: { ...chatbotConfig, title: "Light shop", theme: { colorScheme: "light" } },
    });
    await page.emulateMedia({ colorScheme: "dark" });
    const w = widget(page);
    await page.goto(`${host.origin}/bubble/${auto}`);
    await w.launcher.click();
    await expect(w.panel).toBeVisible();
    await expect(w.panel).toHaveCSS("background-color", "rgb(15, 23, 42)");
    await shots(page, "editor-fields-widget-dark");

    await page.goto(`${host.origin}/bubble/${light}`);
    await w.launcher.click();
    await expect(w.panel).toHaveCSS("background-color", "rgb(255, 255, 255)");
  } finally {
    await host.close();
  }
});
