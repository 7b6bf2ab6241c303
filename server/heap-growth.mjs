// @ts-check
// How far V8 lets a thread's old generation grow past what survived its last full collection, for
// the server's threads (server/start.mjs sets it before any load). V8 picks the factor itself, up to
// 4×: under load the main thread's old space held mostly promoted request garbage waiting for the
// next full collection, and that slack was most of the resident peak. Growing by at most 2× (100%)
// lowered the peak at the same throughput; less than that cost throughput (bench/measured.md,
// "Heap growth").
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
