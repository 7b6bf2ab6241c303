// Summarises a V8 .cpuprofile (`node --cpu-prof`, or `npm run bench` with BENCH_CPU_PROF=<file>) into
// the top frames by self and by total time, grouped by function+file and by package, as Markdown.
//
//   npx tsx bench/profile-summary.ts <file.cpuprofile> [--window <name>] [--top 25]
//
// --window keeps only the samples taken during one of the bench's phases (<file>.windows.json, written
// next to the profile by the bench: e.g. c8-conversation); without it every sample counts (start-up too).
// A phase run in blocks (the interleaved ones: stream-json, stream-sse) has a window per block, all
// of the same name: they are taken together.
// Self time: samples whose innermost frame is the function. Total: samples with the function anywhere
// on the stack (counted once per sample under recursion). Percentages are of the non-idle samples.
import fs from "node:fs";
import path from "node:path";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };
type Window = { name: string; startUs: number; endUs: number; requests: number };

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--") && !/^\d+$/.test(a) && a !== argValue("--window"));
function argValue(name: string) {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}
if (!file) {
  console.error("usage: tsx bench/profile-summary.ts <file.cpuprofile> [--window <name>] [--top N]");
  process.exit(2);
}
const top = Number(argValue("--top") ?? 25);
const windowName = argValue("--window");
const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
let window: Window | undefined;
let blocks: Window[] = [];
if (windowName) {
  const windows = JSON.parse(fs.readFileSync(`${file}.windows.json`, "utf8")) as Window[];
  blocks = windows.filter((w) => w.name === windowName);
  if (blocks.length === 0)
    throw new Error(`no window ${windowName} in ${file}.windows.json (${windows.map((w) => w.name).join(", ")})`);
  window = {
    name: windowName,
    startUs: Math.min(...blocks.map((b) => b.startUs)),
    endUs: Math.max(...blocks.map((b) => b.endUs)),
    requests: blocks.reduce((sum, b) => sum + b.requests, 0),
  };
}
const inWindow = (us: number) => !window || blocks.some((b) => us >= b.startUs && us <= b.endUs);

const root = path.resolve(import.meta.dirname, "..");
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

/** Where a frame's code lives, short: a path in the repo, a package, node's own modules. */
function where(url: string): string {
  if (!url) return "";
  let u = url.replace(/^file:\/\//, "");
  if (u.startsWith(root)) u = u.slice(root.length + 1);
  return u;
}
function packageOf(frame: CallFrame): string {
  const u = where(frame.url);
  if (!u) return frame.functionName.startsWith("(") ? frame.functionName : "(native / V8 builtins)";
  if (u.startsWith("node:")) return "node (core modules)";
  const nm = u.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = u.slice(nm + "node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (u.startsWith(".next/")) return ".next (bundled app + packages)";
  const top = u.split("/")[0];
  return ["lib", "app", "scripts", "dev", "bench"].includes(top) ? `switchyard ${top}/` : u;
}
const fnKey = (f: CallFrame) =>
  `${f.functionName || "(anonymous)"} — ${where(f.url) || "(native)"}${f.url ? `:${f.lineNumber + 1}` : ""}`;

// Sample times: startTime + running sum of the deltas; each sample weighs the time until the next one.
const times: number[] = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));
const self = new Map<string, number>();
const total = new Map<string, number>();
const pkgSelf = new Map<string, number>();
const pkgTotal = new Map<string, number>();
let busy = 0;
let idle = 0;
const add = (m: Map<string, number>, k: string, w: number) => m.set(k, (m.get(k) ?? 0) + w);
for (let i = 0; i < profile.samples.length; i++) {
  if (!inWindow(times[i])) continue;
  const w = (i + 1 < times.length ? times[i + 1] : profile.endTime) - times[i];
  const leaf = byId.get(profile.samples[i])!;
  if (leaf.callFrame.functionName === "(idle)") {
    idle += w;
    continue;
  }
  busy += w;
  add(self, fnKey(leaf.callFrame), w);
  add(pkgSelf, packageOf(leaf.callFrame), w);
  const seen = new Set<string>();
  const seenPkg = new Set<string>();
  for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === "(root)") continue;
    const k = fnKey(f);
    if (!seen.has(k)) {
      seen.add(k);
      add(total, k, w);
    }
    const p = packageOf(f);
    if (!seenPkg.has(p)) {
      seenPkg.add(p);
      add(pkgTotal, p, w);
    }
  }
}

const msOf = (us: number) => (us / 1000).toFixed(0);
const share = (us: number) => `${((100 * us) / busy).toFixed(1)}%`;
const perReq = (us: number) => (window?.requests ? ` | ${(us / 1000 / window.requests).toFixed(3)}` : "");
const reqHead = window?.requests ? " | ms/request" : "";
const reqSep = window?.requests ? "|---:" : "";
function table(title: string, m: Map<string, number>, n: number, label: string) {
  const rows = [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`\n### ${title}\n\n| ${label} | ms | share${reqHead} |\n|---|---:|---:${reqSep}|`);
  for (const [k, v] of rows) console.log(`| \`${k.replace(/\|/g, "\\|")}\` | ${msOf(v)} | ${share(v)}${perReq(v)} |`);
}

console.log(`## CPU profile: ${path.basename(file)}${window ? `, window \`${window.name}\`` : ""}\n`);
console.log(
  `Busy (non-idle) samples: ${msOf(busy)} ms; idle: ${msOf(idle)} ms` +
    (window
      ? `; ${window.requests} requests in the window (${(blocks.reduce((sum, b) => sum + b.endUs - b.startUs, 0) / 1e6).toFixed(1)} s)`
      : "") +
    (window?.requests
      ? `; busy CPU of the main thread per request: ${(busy / 1000 / window.requests).toFixed(2)} ms`
      : "") +
    ". Shares are of the busy samples. Times are V8's sample intervals (wall time while the main thread was not idle): " +
    "on a loaded machine they exceed its CPU time (the thread also waits for a core), so read the shares, and take CPU " +
    "per request from the bench's /proc figures.",
);
table("By package, self time", pkgSelf, 20, "package");
table("By package, total time (on the stack)", pkgTotal, 20, "package");
table(`Top ${top} functions by self time`, self, top, "function — file:line");
table(`Top ${top} functions by total time`, total, top, "function — file:line");
