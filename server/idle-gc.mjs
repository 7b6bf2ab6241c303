// @ts-check
// Full garbage collections of a thread once it has gone idle (the server's main thread, the embedded
// database's thread: server/pglite-wire.mjs). V8 collects when it needs room, and an idle thread
// allocates too little to need any: what a burst of work (start-up, a load peak) left behind then
// stays resident, the heap grown to its peak size. One collection 10 s after the last work gives it
// back; it takes ~0.1-0.2 s of the thread, once per idle period, when nothing is waiting for it.
import v8 from "node:v8";
import vm from "node:vm";

/** Idle time after which a thread collects its garbage. */
export const IDLE_GC_MS = 10_000;

/** @type {(() => void) | undefined} */
let gc;
/**
 * One full garbage collection of this thread, now, compacting every page of its old space. A plain
 * full collection frees objects but moves only a few pages' survivors, so a heap once grown keeps
 * its pages, mostly empty (bench/measured.md, "Idle collection"). Compacting them all (V8's
 * --compact-on-every-full-gc, set for this one collection) gives the empty pages back to the system.
 */
export function collectGarbage() {
  if (!gc) {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc");
  }
  const collect = /** @type {() => void} */ (gc);
  v8.setFlagsFromString("--compact-on-every-full-gc");
  try {
    collect();
  } finally {
    v8.setFlagsFromString("--no-compact-on-every-full-gc");
  }
}

/**
 * Returns `touch()`: call it when work ends; `ms` after the last call, `collectGarbage()` runs if
 * `idle()` says nothing is in progress (else the next `touch()` arms it again). A call only notes
 * the time (and arms one timer when none is): the timer, when it fires early, waits out the rest.
 * (Refreshing one timer per call, `timeout.refresh()`, was tried: after a long burst of requests it
 * did not fire, measured on Node 20.)
 */
export function collectWhenIdle(idle = () => true, ms = IDLE_GC_MS) {
  let last = 0;
  let armed = false;
  const fire = () => {
    const wait = last + ms - performance.now();
    if (wait > 1) {
      setTimeout(fire, wait).unref();
      return;
    }
    armed = false;
    if (idle()) collectGarbage();
  };
  return () => {
    last = performance.now();
    if (armed) return;
    armed = true;
    setTimeout(fire, ms).unref();
  };
}
