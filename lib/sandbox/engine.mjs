// @ts-check
// One run of user code in QuickJS (WebAssembly), inside a sandbox worker thread (worker.mjs). Each
// run gets a fresh QuickJS runtime with a stack limit and an interrupt handler that stops it at
// its deadline; the WebAssembly memory it allocates in has a fixed maximum. Nothing of the host is
// reachable from it but the functions guest.mjs wraps (console lines; fetch when the caller gave one).
import { readFile } from "node:fs/promises";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";
import { PRELUDE } from "./guest.mjs";
import { hostCalls } from "./host-fetch.mjs";
import { FILE, neverSettles, Reporter, readResult } from "./outcome.mjs";

/**
 * @typedef {{ quickjs: import("quickjs-emscripten-core").QuickJSWASMModule; heap: ReturnType<typeof watchHeap> }} Engine
 * @typedef {import("quickjs-emscripten-core").QuickJSContext} Context
 * @typedef {import("quickjs-emscripten-core").QuickJSHandle} Handle
 * @typedef {import("./types").RunMessage} RunMessage
 * @typedef {import("./types").SandboxOutcome} SandboxOutcome
 * @typedef {import("./types").SandboxFetchRequest} SandboxFetchRequest
 * @typedef {import("./types").SandboxFetchResponse} SandboxFetchResponse
 * @typedef {import("./types").ConsoleLine} ConsoleLine
 * @typedef {import("./outcome.mjs").Result} Result
 */

const MiB = 1024 * 1024;
const PAGE = 64 * 1024;
/** The WebAssembly memory the QuickJS build starts with (its own minimum): static data, stack, a first heap. */
const BASE_BYTES = 16 * MiB;
/**
 * Held by each run from before the user's code starts, and freed to describe how the run ended: a
 * run that filled its memory still gets its error read.
 */
const RESERVE_BYTES = MiB;
/** Spare room asked for on top of a copy into QuickJS (see `hasRoom`). */
const ROOM_SLACK = 64 * 1024;
/**
 * QuickJS's own stack limit. Its frames run on the thread's native stack too, about three times as
 * deep: the worker gets 8 MiB (pool.ts), so deep recursion ends in QuickJS's catchable "stack
 * overflow" long before V8's RangeError would unwind the WebAssembly mid-call.
 */
export const STACK_BYTES = 512 * 1024;

/** @type {Promise<WebAssembly.Module> | undefined} */
let compiled;

/**
 * A QuickJS instance whose WebAssembly memory can never grow past its base plus `memoryMb`.
 *
 * The memory limit is this fixed maximum, not QuickJS's JS_SetMemoryLimit: in the Emscripten builds
 * QuickJS counts every allocation as 8 bytes (malloc_usable_size is 0 there), so that limit only
 * refuses single allocations larger than itself and many smaller ones add up without end
 * (quickjs-emscripten issues 255 and 271). With the maximum, a malloc past it fails inside the
 * WebAssembly and QuickJS throws its ordinary "out of memory" (or, with no room left to make that
 * error, null: `heap` tells that case apart).
 * @param {number} memoryMb
 * @returns {Promise<Engine>}
 */
export async function loadEngine(memoryMb) {
  compiled ??= readFile(new URL(import.meta.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"))).then((bytes) =>
    WebAssembly.compile(bytes),
  );
  const maximum = (BASE_BYTES + memoryMb * MiB + RESERVE_BYTES) / PAGE;
  const wasmMemory = new WebAssembly.Memory({ initial: BASE_BYTES / PAGE, maximum });
  const heap = watchHeap(wasmMemory);
  const quickjs = await newQuickJSWASMModuleFromVariant(
    newVariant(variant, { wasmModule: await compiled, wasmMemory }),
  );
  return { quickjs, heap };
}

/**
 * Whether a malloc failed for want of memory. Emscripten's heap resize (emscripten-module.mjs,
 * `emscripten_resize_heap`) tries `memory.grow` up to three times, each asking less, and gives up
 * (malloc returns NULL) when all three throw past the maximum: three failures in a row are that.
 * A test fills the memory with small objects, the case that depends on it.
 * @param {WebAssembly.Memory} memory
 */
function watchHeap(memory) {
  const grow = memory.grow.bind(memory);
  let failuresInARow = 0;
  let exhausted = false;
  memory.grow = (delta) => {
    try {
      const pages = grow(delta);
      failuresInARow = 0;
      return pages;
    } catch (e) {
      if (++failuresInARow >= 3) exhausted = true;
      throw e;
    }
  };
  return {
    exhausted: () => exhausted,
    reset: () => {
      failuresInARow = 0;
      exhausted = false;
    },
  };
}

/**
 * Runs one job. `requestFetch` carries a fetch to the server's thread. Resolves with the outcome,
 * `retire` when QuickJS itself failed (nothing in this thread's WebAssembly is to be trusted again),
 * and `renew` when the run filled the instance's memory (the next run gets a new instance).
 * @param {Engine} engine
 * @param {RunMessage} job
 * @param {(request: SandboxFetchRequest) => Promise<SandboxFetchResponse>} requestFetch
 * @returns {Promise<{ outcome: SandboxOutcome; retire: boolean; renew: boolean }>}
 */
export async function runJob(engine, job, requestFetch) {
  const { limits } = job;
  // The clock starts with the user's code (set in execute): preparing the run is not theirs to pay.
  const clock = { deadline: Number.POSITIVE_INFINITY };
  const logs = consoleBuffer(limits.maxConsoleBytes);
  engine.heap.reset();
  const runtime = engine.quickjs.newRuntime();
  // Refuses any single allocation larger than the limit (the memory's maximum bounds the total).
  runtime.setMemoryLimit(limits.memoryMb * MiB);
  runtime.setMaxStackSize(STACK_BYTES);
  runtime.setInterruptHandler(() => Date.now() > clock.deadline);
  const vm = runtime.newContext();
  /** @type {Handle[]} */
  const handles = [];
  const keep = (/** @type {Handle} */ h) => {
    handles.push(h);
    return h;
  };
  /** @type {ReturnType<typeof hostCalls> | undefined} */
  let host;
  /** @type {Result} */
  let result;
  let retire = false;
  try {
    const tools = keep(vm.unwrapResult(vm.evalCode(PRELUDE, "prelude.js")));
    const hasRoom = roomCheck(vm, keep(vm.getProp(tools, "room")));
    host = hostCalls(vm, requestFetch, hasRoom);
    result = await execute({ vm, job, clock, keep, tools, host, hasRoom, logs, heap: engine.heap });
  } catch (e) {
    // QuickJS or its WebAssembly failed (not the user's code): answer, and let the pool replace this worker.
    retire = true;
    result = { ok: false, error: { kind: "error", message: `the sandbox's engine failed: ${errorText(e)}` } };
  } finally {
    host?.close();
    for (const h of handles.reverse()) if (h.alive) h.dispose();
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      retire = true;
    }
  }
  const outcome = /** @type {SandboxOutcome} */ ({ ...result, ...logs.result() });
  // A run that filled the memory leaves a fragmented heap behind.
  return { outcome, retire, renew: engine.heap.exhausted() };
}

const errorText = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));

/**
 * Whether QuickJS can allocate `bytes` (plus some slack) right now, tried with an allocation of its
 * own that it frees at once. quickjs-emscripten copies strings into the WebAssembly memory with a
 * malloc it does not check: past the maximum that copy would write at address 0. Every copy into a
 * run that may have filled its memory (the variables, fetch answers, the returned value read back)
 * asks first; the freed block is what the copy's malloc then gets.
 * @param {Context} vm
 * @param {Handle} room the prelude's `room` (guest.mjs)
 */
function roomCheck(vm, room) {
  return (/** @type {number} */ bytes) => {
    const size = vm.newNumber(bytes + ROOM_SLACK);
    const tried = vm.callFunction(room, vm.undefined, size);
    size.dispose();
    const ok = !tried.error;
    tried.dispose();
    return ok;
  };
}

/**
 * Compiles the code as the body of an async function taking the variables, calls it, waits for it
 * and reads its value.
 * @param {{ vm: Context; job: RunMessage; clock: { deadline: number }; keep: (h: Handle) => Handle; tools: Handle;
 *   host: ReturnType<typeof hostCalls>; hasRoom: (bytes: number) => boolean; logs: ReturnType<typeof consoleBuffer>;
 *   heap: Engine["heap"] }} run
 * @returns {Promise<Result>}
 */
async function execute({ vm, job, clock, keep, tools, host, hasRoom, logs, heap }) {
  const { limits } = job;
  const log = keep(vm.newFunction("log", (level, text) => logs.add(vm.getString(level), vm.getString(text))));
  const fetch = job.fetch ? keep(vm.newFunction("fetch", host.fetch)) : vm.undefined;
  const guest = keep(vm.unwrapResult(vm.callFunction(keep(vm.getProp(tools, "install")), vm.undefined, log, fetch)));
  const report = new Reporter(vm, keep(vm.getProp(guest, "describe")), clock, limits, STACK_BYTES);
  const reserve = keep(vm.newArrayBuffer(new ArrayBuffer(RESERVE_BYTES)));
  /** Describes a failure with the reserve freed, in case the run filled its memory. */
  const failed = (/** @type {Handle} */ error) => {
    if (reserve.alive) reserve.dispose();
    return report.failure(keep(error), heap.exhausted());
  };
  if (!hasRoom(Buffer.byteLength(job.variablesJson))) return { ok: false, error: report.memory() };
  const json = keep(vm.newString(job.variablesJson));
  const variables = vm.callFunction(keep(vm.getProp(guest, "parse")), vm.undefined, json);
  if (variables.error) return { ok: false, error: failed(variables.error) };
  const values = keep(variables.value);
  const args = job.variableNames.map((name) => keep(vm.getProp(values, name)));
  const params = job.variableNames.map((n) => `$${n}`).join(", ");
  clock.deadline = Date.now() + limits.timeoutMs;
  // The body starts on line 1 of the file, so QuickJS's line numbers are the user's.
  const compiled = vm.evalCode(`(async function (${params}) {${job.code}\n})`, FILE);
  if (compiled.error) return { ok: false, error: failed(compiled.error) };
  const called = vm.callFunction(keep(compiled.value), vm.undefined, ...args);
  if (called.error) return { ok: false, error: failed(called.error) };
  const settled = await settle(vm, keep(called.value), host, clock.deadline);
  if (settled === "deadline") return { ok: false, error: report.timeout() };
  if (settled === "memory") return { ok: false, error: report.memory() };
  if (settled === "stuck") return { ok: false, error: neverSettles() };
  if ("error" in settled) return { ok: false, error: failed(settled.error) };
  const serialize = keep(vm.getProp(guest, "serialize"));
  const text = vm.callFunction(serialize, vm.undefined, keep(settled.value));
  if (text.error) return { ok: false, error: report.badResult(failed(text.error)) };
  if (reserve.alive) reserve.dispose();
  return readResult(vm, keep(text.value), limits.maxResultBytes, hasRoom, () => report.memory());
}

/**
 * Runs the promise jobs until the run's promise settles, waiting for the server's answers to fetch
 * calls in between.
 * @param {Context} vm
 * @param {Handle} promise
 * @param {ReturnType<typeof hostCalls>} host
 * @param {number} deadline
 * @returns {Promise<"deadline" | "memory" | "stuck" | { value: Handle } | { error: Handle }>}
 */
async function settle(vm, promise, host, deadline) {
  for (;;) {
    const jobs = vm.runtime.executePendingJobs();
    if (jobs.error) return { error: jobs.error };
    jobs.dispose();
    // Jobs the interrupt cut off settle nothing, or settle the run's promise too late: either is a timeout.
    if (Date.now() > deadline) return "deadline";
    if (host.exhausted()) return "memory";
    const state = vm.getPromiseState(promise);
    if (state.type === "fulfilled") return { value: state.value };
    if (state.type === "rejected") return { error: state.error };
    if (host.inFlight() === 0) return "stuck";
    if ((await host.next(deadline - Date.now())) === "deadline") return "deadline";
  }
}

/**
 * The run's console: lines until their UTF-8 bytes reach the cap, then only a mark that some were dropped.
 * @param {number} maxBytes
 */
function consoleBuffer(maxBytes) {
  /** @type {ConsoleLine[]} */
  const lines = [];
  let bytes = 0;
  let truncated = false;
  return {
    add(/** @type {string} */ level, /** @type {string} */ text) {
      const size = Buffer.byteLength(text) + 1;
      if (truncated || bytes + size > maxBytes) {
        truncated = true;
        return;
      }
      bytes += size;
      lines.push({ level: /** @type {ConsoleLine["level"]} */ (level), text });
    },
    result: () => ({ console: lines, consoleTruncated: truncated }),
  };
}
