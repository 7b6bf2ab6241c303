// @ts-check
// How a run of user code ended, as the pool reports it: the returned value read back from QuickJS
// within its caps, or a failure naming the limit it hit or the user's own message and line.

/**
 * @typedef {import("quickjs-emscripten-core").QuickJSContext} Context
 * @typedef {import("quickjs-emscripten-core").QuickJSHandle} Handle
 * @typedef {import("./types").Json} Json
 * @typedef {import("./types").SandboxFailure} SandboxFailure
 * @typedef {import("./types").SandboxLimits} SandboxLimits
 */

/** The file name QuickJS reports the user's lines in. */
export const FILE = "function.js";
/** Deepest nesting of a returned value (the HTTP layer refuses JSON deeper than 64 too). */
export const MAX_RESULT_DEPTH = 64;

/** @typedef {{ ok: true; value: Json } | { ok: false; error: SandboxFailure }} Result */

/** The failure of a run whose promise waits on nothing that could ever settle it. */
export const neverSettles = () =>
  /** @type {SandboxFailure} */ ({
    kind: "error",
    message: "the function awaited something that never settles (no timers exist in the sandbox)",
  });

/**
 * The JSON text of the returned value, within the caps, parsed back into a value. `canRead` says
 * whether QuickJS has room for the copy reading it needs (engine.mjs).
 * @param {Context} vm
 * @param {Handle} json
 * @param {number} maxBytes
 * @param {(bytes: number) => boolean} canRead
 * @param {() => SandboxFailure} outOfMemory
 * @returns {Result}
 */
export function readResult(vm, json, maxBytes, canRead, outOfMemory) {
  if (vm.typeof(json) !== "string") {
    return {
      ok: false,
      error: { kind: "bad_result", message: "the function returned a function or a symbol, not JSON" },
    };
  }
  const tooBig = () =>
    /** @type {const} */ ({
      ok: false,
      error: {
        kind: "bad_result",
        message: `the returned value is larger than ${maxBytes} bytes as JSON (SANDBOX_MAX_RESULT_BYTES)`,
      },
    });
  const length = vm.getProp(json, "length").consume((h) => vm.getNumber(h));
  if (length > maxBytes) return tooBig();
  if (!canRead(length * 3)) return { ok: false, error: outOfMemory() };
  const text = vm.getString(json);
  if (Buffer.byteLength(text) > maxBytes) return tooBig();
  if (jsonDepth(text) > MAX_RESULT_DEPTH) {
    return {
      ok: false,
      error: { kind: "bad_result", message: `the returned value nests deeper than ${MAX_RESULT_DEPTH} levels` },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, error: { kind: "bad_result", message: "the returned value did not serialize to JSON" } };
  }
}

/** The deepest nesting of arrays and objects in a JSON text (strings skipped). */
function jsonDepth(/** @type {string} */ text) {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string, escapes included.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Turns what the user's code threw into a failure: the limit it ran into, or its own message and line.
 */
export class Reporter {
  /**
   * @param {Context} vm
   * @param {Handle} describe the prelude's `describe` (guest.mjs)
   * @param {{ deadline: number }} clock
   * @param {SandboxLimits} limits
   * @param {number} stackBytes QuickJS's stack limit, named by a stack overflow
   */
  constructor(vm, describe, clock, limits, stackBytes) {
    this.vm = vm;
    this.describeFn = describe;
    this.clock = clock;
    this.limits = limits;
    this.stackBytes = stackBytes;
  }

  /** @returns {SandboxFailure} */
  timeout() {
    const limitMs = this.limits.timeoutMs;
    return { kind: "timeout", limitMs, message: `the function ran longer than ${limitMs} ms (SANDBOX_TIMEOUT_MS)` };
  }

  /** @returns {SandboxFailure} */
  memory() {
    const limitMb = this.limits.memoryMb;
    return {
      kind: "memory",
      limitMb,
      message: `the function used more than ${limitMb} MB of memory (SANDBOX_MEMORY_MB)`,
    };
  }

  /**
   * @param {Handle} error
   * @returns {{ name: string; message: string; stack: string } | undefined}
   */
  describe(error) {
    const described = this.vm.callFunction(this.describeFn, this.vm.undefined, error);
    if (described.error) {
      described.error.dispose();
      return undefined;
    }
    return described.value.consume((h) => JSON.parse(this.vm.getString(h)));
  }

  /**
   * @param {Handle} error what was thrown
   * @param {boolean} memoryFull whether an allocation of the run failed at the memory's maximum
   * @returns {SandboxFailure}
   */
  failure(error, memoryFull) {
    if (Date.now() > this.clock.deadline) return this.timeout();
    // Past the maximum QuickJS may not even manage to allocate its "out of memory" error, and then
    // throws null; whatever the code threw after running out, the run ran out of memory.
    if (memoryFull) return this.memory();
    const info = this.describe(error);
    if (!info) return { kind: "error", message: "the function threw an exception that cannot be read" };
    if (info.name === "InternalError" && info.message === "interrupted") return this.timeout();
    if (info.name === "InternalError" && info.message === "out of memory") return this.memory();
    const where = new RegExp(`${FILE.replace(".", "\\.")}:(\\d+):(\\d+)`).exec(info.stack);
    const line = where ? Number(where[1]) : undefined;
    const column = where ? Number(where[2]) : undefined;
    const what =
      info.name === "InternalError" && info.message === "stack overflow"
        ? `stack overflow: the recursion went deeper than the sandbox's ${this.stackBytes / 1024} KiB stack`
        : info.name
          ? `${info.name}: ${info.message}`
          : `threw ${info.message}`;
    return { kind: "error", message: line ? `${what} (line ${line})` : what, line, column };
  }

  /**
   * A value JSON.stringify refused (a BigInt, a cycle, a throwing toJSON), unless a limit stopped it.
   * @param {SandboxFailure} failure
   * @returns {SandboxFailure}
   */
  badResult(failure) {
    if (failure.kind !== "error") return failure;
    return { kind: "bad_result", message: `the returned value is not JSON: ${failure.message}` };
  }
}
