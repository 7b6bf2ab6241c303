// @ts-check
// How far V8 lets a thread's old generation grow past what survived its last full collection, for
// the server's threads (server/start.mjs sets it before any load). V8 picks the factor itself, up to
// 4×: under c=64 predictions the main thread's old space reached 150–200 MB holding 60–80 MB of live
// objects (the rest promoted request garbage waiting for the next full collection), and that slack
// was most of the resident peak. Growing by at most 2× (100%) held the c=64 peak at 414–419 vs
// 427–464 MB with the same throughput (1975–2102 vs 1535–1905 predictions in 6 s, runs alternating);
// 60% held it at 380–384 MB but served ~20% fewer.
import v8 from "node:v8";

/** HEAP_GROWING_PERCENT's default. */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

/**
 * The growth allowed, in percent over the surviving size, from HEAP_GROWING_PERCENT's value: unset
 * or empty means the default; `0` means V8's own choice. Throws with the reason for anything else
 * than a whole number from 0 to 1000.
 * @param {string | undefined} value
 * @returns {number}
 */
export function heapGrowingPercent(value) {
  if (value === undefined || value.trim() === "") return DEFAULT_HEAP_GROWING_PERCENT;
  const text = value.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 1000)
    throw new Error(
      `HEAP_GROWING_PERCENT must be a whole number from 0 (V8 decides) to 1000, not "${value}" (default ${DEFAULT_HEAP_GROWING_PERCENT})`,
    );
  return n;
}

/**
 * Sets V8's heap growing factor for every thread of this process (the flag is process-wide, and V8
 * reads it at each full collection). 0 leaves V8's own choice.
 * @param {number} percent
 */
export function limitHeapGrowth(percent) {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
