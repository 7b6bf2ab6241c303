// `npx tsx bench/editor-trace.ts`: where a frame of the 300-node editor goes, for profiling before an
// editor change (bench/editor.ts gives the figures). Against a running app (BENCH_URL, BENCH_EMAIL,
// BENCH_PASSWORD as bench/editor.ts; FLOW_ID to reuse a flow, else it creates one), it records a
// Chromium trace while MODE (pan | zoom | drag) runs for 2 s at the opening zoom, prints the busiest
// trace events per thread as ms per second and per frame, and keeps the trace in
// /tmp/editor-trace-<mode>.json (open it in chrome://tracing or Perfetto). BENCH_CSS adds a style sheet
// (to try a change without a build), EXTRA_ARGS more Chromium flags; ZOOM_IN=1 traces at 100 % instead,
// DRAG_TYPE picks the type of the node to drag (default: the node nearest the centre); it prints which
// node was dragged, or that the grip missed (then the trace is of a pan).
import fs from "node:fs";
import { bigFlowGraph } from "./big-flow";
import { openBenchBrowser, signIn } from "./editor-browser";
const MODE = process.env.MODE ?? "pan";
/** How far a pan moves the mouse each way (px): far enough and nodes come into view and leave it. */
const PAN_AMP = Number(process.env.PAN_AMP ?? 150);
const { browser, context } = await openBenchBrowser(process.env.EXTRA_ARGS?.split(" ").filter(Boolean));
const page = await context.newPage();
await signIn(
  page,
  process.env.BENCH_EMAIL ?? process.env.ADMIN_EMAIL ?? "",
  process.env.BENCH_PASSWORD ?? process.env.ADMIN_PASSWORD ?? "",
);
let id = process.env.FLOW_ID;
const created = !id;
if (!id) {
  const res = await page.request.post("/api/v1/chatflows", {
    data: { name: `trace ${Date.now()}`, graph: bigFlowGraph() },
  });
  if (!res.ok()) throw new Error(`creating the chatflow failed: ${res.status()} ${await res.text()}`);
  id = (await res.json()).id as string;
}
await page.goto(`/chatflows/${id}`);
await page.waitForSelector(".react-flow__node");
await page.waitForTimeout(2500);
const r = await page.locator(".react-flow__pane").boundingBox();
/**
 * Where to grab a node of DRAG_TYPE (any type when unset): on the header of the one nearest the pane's
 * centre whose header is not covered (by a panel, another node).
 */
const findGrip = async () =>
  (await page.evaluate(`(() => {
    const r = document.querySelector(".react-flow__pane").getBoundingClientRect();
    let best;
    for (const el of document.querySelectorAll(".react-flow__node")) {
      if (!el.dataset.id.startsWith(${JSON.stringify(process.env.DRAG_TYPE ?? "")})) continue;
      const h = (el.querySelector("header") ?? el).getBoundingClientRect();
      const x = h.x + Math.min(h.width * 0.3, 40);
      const y = h.y + Math.min(h.height / 2, 14);
      if (!el.contains(document.elementFromPoint(x, y))) continue;
      const d = Math.hypot(x - (r.x + r.width / 2), y - (r.y + r.height / 2));
      if (!best || d < best.d) best = { x, y, d, id: el.dataset.id };
    }
    return best;
  })()`)) as { x: number; y: number; id: string } | undefined;
// ZOOM_IN=1: first wheel in to 100 % (forms, not cards) over the node a drag would grab, as bench/editor.ts does.
for (let i = 0, target = ""; process.env.ZOOM_IN && i < 40; i++) {
  const t = (await page.evaluate(`document.querySelector(".react-flow__viewport").style.transform`)) as string;
  if (Number(/scale\(([\d.]+)\)/.exec(t)?.[1] ?? 1) >= 0.99) break;
  target ||= (await findGrip())?.id ?? "";
  const box = target ? await page.locator(`.react-flow__node[data-id="${target}"]`).boundingBox() : null;
  await page.mouse.move(box ? box.x + 20 : r!.x + r!.width / 2, box ? box.y + 10 : r!.y + r!.height / 2);
  await page.mouse.wheel(0, -100);
  await page.waitForTimeout(60);
}
await page.waitForTimeout(1000);
const spot = { x: r!.x + 40, y: r!.y + r!.height - 120 };
await browser.startTracing(page, {
  categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "cc", "viz", "gpu", "benchmark"],
});
let frames = 0;
let dragged = "";
await page.evaluate("window.__f = 0; (function loop() { window.__f++; requestAnimationFrame(loop); })()");
const t0 = Date.now();
if (MODE === "pan") {
  await page.mouse.move(spot.x, spot.y);
  await page.mouse.down();
  while (Date.now() - t0 < 2000) {
    const a = Math.sin(((Date.now() - t0) / 2000) * 4 * Math.PI);
    await page.mouse.move(spot.x + a * PAN_AMP, spot.y + a * PAN_AMP * 0.4);
    await page.waitForTimeout(8);
  }
  await page.mouse.up();
} else if (MODE === "drag") {
  const g = await findGrip();
  if (!g) throw new Error(`no ${process.env.DRAG_TYPE || "(any)"} node with its header in view`);
  await page.mouse.move(g.x, g.y);
  await page.mouse.down();
  while (Date.now() - t0 < 2000) {
    const a = Math.sin(((Date.now() - t0) / 2000) * 4 * Math.PI);
    await page.mouse.move(g.x + a * 80, g.y + a * 32);
    dragged ||= (await page.evaluate(
      `document.querySelector(".react-flow__node.dragging")?.dataset.id ?? ""`,
    )) as string;
    await page.waitForTimeout(8);
  }
  await page.mouse.up();
} else {
  await page.mouse.move(r!.x + r!.width / 2, r!.y + r!.height / 2);
  for (let i = 0; Date.now() - t0 < 2000; i++) {
    await page.mouse.wheel(0, i % 40 < 20 ? -20 : 20);
    await page.waitForTimeout(8);
  }
}
frames = (await page.evaluate("window.__f")) as number;
const buf = await browser.stopTracing();
const dt = (Date.now() - t0) / 1000;
if (MODE === "drag") console.log(`dragged: ${dragged || "nothing (the grip missed a node)"}`);
console.log(`${MODE}: raf ${(frames / dt).toFixed(1)} /s over ${dt}s`);
const trace = JSON.parse(buf.toString());
const events = trace.traceEvents ?? trace;
const threads = new Map<string, string>();
for (const e of events) if (e.name === "thread_name") threads.set(`${e.pid}:${e.tid}`, e.args.name);
const by = new Map<string, number>();
for (const e of events) {
  if (e.ph !== "X" || !e.dur) continue;
  const t = threads.get(`${e.pid}:${e.tid}`) ?? "?";
  const k = `${t} | ${e.name}`;
  by.set(k, (by.get(k) ?? 0) + e.dur / 1000);
}
const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 45);
for (const [k, v] of top)
  console.log(`${(v / dt).toFixed(1).padStart(7)} ms/s  ${(v / frames).toFixed(2).padStart(6)} ms/frame  ${k}`);
fs.writeFileSync(`/tmp/editor-trace-${MODE}.json`, buf);
if (created) await page.request.delete(`/api/v1/chatflows/${id}`);
await browser.close();
