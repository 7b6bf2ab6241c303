/** Types of heap-growth.mjs (plain ESM so scripts/start.mjs can run it under node). */
export declare const DEFAULT_HEAP_GROWING_PERCENT: number;
/** HEAP_GROWING_PERCENT's value as a percent (unset: the default; 0: V8's own choice); throws on a bad one. */
export declare function heapGrowingPercent(value: string | undefined): number;
/** Sets V8's heap growing factor for every thread of this process; 0 leaves V8's own. */
export declare function limitHeapGrowth(percent: number): void;
