// Full garbage collections of a thread once it has gone idle (the server's main thread, the embedded
// database's thread: scripts/pglite-wire.mjs). V8 collects when it needs room, and an idle thread
// allocates too little to need any: what a burst of work (start-up, a load peak) left behind then
// stays resident, the heap grown to its peak size. One collection 10 s after the last work gives it
// back; it takes ~0.1-0.2 s of the thread, once per idle period, when nothing is waiting for it.
import v8 from "node:v8";
import vm from "node:vm";

/** Idle time after which a thread collects its garbage. */
export const IDLE_GC_MS = 10_000;

let gc;
/** One full garbage collection of this thread, now. */
export function collectGarbage() {
  if (!gc) {
    v8.setFlagsFromString("--expose-gc");
    gc = vm.runInNewContext("gc");
  }
  gc();
}

/**
 * Returns `touch()`: call it when work ends; `IDLE_GC_MS` after the last call, `collectGarbage()`
 * runs if `idle()` says nothing is in progress (else the next `touch()` arms it again). One timer,
 * refreshed (not recreated) by each call, and never keeping the process alive.
 */
export function collectWhenIdle(idle = () => true, ms = IDLE_GC_MS) {
  let timer;
  const fire = () => {
    if (idle()) collectGarbage();
  };
  return () => {
    if (timer) timer.refresh();
    else timer = setTimeout(fire, ms).unref();
  };
}
