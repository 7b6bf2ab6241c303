// `npx tsx bench/editor.ts`: how long the chatflow editor takes to open and render a 300-node flow.
//
// Needs a running app (it starts nothing itself): BENCH_URL (default http://127.0.0.1:3000) and a
// studio user to sign in as, BENCH_EMAIL / BENCH_PASSWORD (default: ADMIN_EMAIL / ADMIN_PASSWORD).
// Uses Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) through playwright-core.
// Creates a throw-away chatflow of 60 product-search agents (300 nodes, 300 edges) through the API,
// opens the editor RUNS times and prints figures: time to first node, to all nodes and edges drawn
// and measured, and to an idle main thread; then auto-layout and typing into a node's field.
// Figures, not assertions: compare runs on the same machine. E.g.
//   npm run build && PORT=3000 npm run serve &  BENCH_EMAIL=… BENCH_PASSWORD=… npx tsx bench/editor.ts
import { chromium, type Page } from "playwright-core";

const BASE = (process.env.BENCH_URL ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const EMAIL = process.env.BENCH_EMAIL ?? process.env.ADMIN_EMAIL;
const PASSWORD = process.env.BENCH_PASSWORD ?? process.env.ADMIN_PASSWORD;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const GROUPS = 60; // × 5 nodes

if (!EMAIL || !PASSWORD) {
  console.error("Set BENCH_EMAIL and BENCH_PASSWORD (a studio user of the app at BENCH_URL).");
  process.exit(2);
}

/** 60 copies of the product-search agent wiring, in a grid. */
function bigGraph() {
  const nodes: object[] = [];
  const edges: object[] = [];
  const h = (id: string, name: string, dir: "in" | "out") => `${id}:${dir}:${name}`;
  const edge = (s: string, so: string, t: string, ti: string) =>
    edges.push({
      id: `${h(s, so, "out")}->${h(t, ti, "in")}`,
      source: s,
      sourceHandle: h(s, so, "out"),
      target: t,
      targetHandle: h(t, ti, "in"),
    });
  for (let g = 0; g < GROUPS; g++) {
    const x = (g % 6) * 1600;
    const y = Math.floor(g / 6) * 900;
    const id = (t: string) => `${t}_${g}`;
    const node = (type: string, dx: number, dy: number, inputs: object = {}) =>
      nodes.push({ id: id(type), type, position: { x: x + dx, y: y + dy }, data: { inputs } });
    node("chatOpenAICompatible", 0, 0, { temperature: 0 });
    node("openApiChain", 320, 0, { specUrl: "https://shop.example.com/openapi.yaml" });
    node("chainTool", 640, 0, { name: `product_search_${g}`, description: "Finds products." });
    node("bufferMemory", 640, 420, { windowSize: 10 });
    node("toolAgent", 960, 100);
    edge(id("chatOpenAICompatible"), "chatModel", id("openApiChain"), "model");
    edge(id("openApiChain"), "chain", id("chainTool"), "chain");
    edge(id("chainTool"), "tool", id("toolAgent"), "tools");
    edge(id("bufferMemory"), "memory", id("toolAgent"), "memory");
    edge(id("chatOpenAICompatible"), "chatModel", id("toolAgent"), "model");
  }
  return { nodes, edges };
}

const ms = (n: number) => `${n.toFixed(0)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Resolves when the editor shows `count` measured nodes and their edges; returns times since navigation. */
async function openEditor(page: Page, url: string, count: number) {
  const t0 = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForSelector(".react-flow__node", { timeout: 120_000 });
  const firstNode = Date.now() - t0;
  await page.waitForFunction(
    (n) => {
      const nodes = document.querySelectorAll(".react-flow__node");
      const visible = [...nodes].filter((el) => (el as HTMLElement).style.visibility !== "hidden").length;
      return nodes.length === n && visible === n && document.querySelectorAll(".react-flow__edge path").length >= n;
    },
    count,
    { timeout: 120_000, polling: 50 },
  );
  const allRendered = Date.now() - t0;
  await page.evaluate(() => new Promise<void>((r) => requestIdleCallback(() => r(), { timeout: 10_000 })));
  return { firstNode, allRendered, idle: Date.now() - t0 };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--disable-background-networking",
  ],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, baseURL: BASE });
let chatflowId: string | undefined;
try {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(EMAIL);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/chatflows$/);

  const graph = bigGraph();
  const created = await page.request.post("/api/v1/chatflows", { data: { name: `bench editor ${Date.now()}`, graph } });
  if (!created.ok()) throw new Error(`creating the chatflow failed: ${created.status()} ${await created.text()}`);
  chatflowId = (await created.json()).id as string;
  console.log(`editor bench: ${graph.nodes.length} nodes, ${graph.edges.length} edges, ${RUNS} runs, ${BASE}`);

  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await openEditor(page, `/chatflows/${chatflowId}`, graph.nodes.length));
  for (const key of ["firstNode", "allRendered", "idle"] as const) {
    const xs = runs.map((r) => r[key]);
    console.log(
      `  open → ${key.padEnd(12)} median ${ms(median(xs))}  min ${ms(Math.min(...xs))}  max ${ms(Math.max(...xs))}  (first run ${ms(xs[0])})`,
    );
  }

  const layout = await page.evaluate(async () => {
    const before = document.querySelector(".react-flow__node")?.getAttribute("style");
    const t = performance.now();
    (document.querySelector('[aria-label="Auto-layout"]') as HTMLButtonElement).click();
    while (document.querySelector(".react-flow__node")?.getAttribute("style") === before)
      await new Promise((r) => requestAnimationFrame(r));
    return performance.now() - t;
  });
  console.log(`  auto-layout of ${graph.nodes.length} nodes: ${ms(layout)}`);

  const field = page.locator("#chainTool_0-name");
  await field.scrollIntoViewIfNeeded().catch(() => undefined);
  const typing = await field
    .evaluate(async (el: HTMLInputElement) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        setter.call(el, el.value + "x");
        el.dispatchEvent(new Event("input", { bubbles: true }));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[10];
    })
    .catch(() => NaN);
  console.log(
    `  one keystroke in a node field → next frame: median ${Number.isNaN(typing) ? "n/a (field not rendered)" : ms(typing)}`,
  );
} finally {
  if (chatflowId) await page.request.delete(`/api/v1/chatflows/${chatflowId}`).catch(() => undefined);
  await browser.close();
}
