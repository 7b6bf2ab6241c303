/** Types of idle-gc.mjs (plain ESM so scripts/start.mjs and the database thread can run it under node). */
export declare const IDLE_GC_MS: number;
/** One full garbage collection of this thread, now. */
export declare function collectGarbage(): void;
/** Returns `touch()`: call it when work ends; `ms` after the last call the thread collects if `idle()`. */
export declare function collectWhenIdle(idle?: () => boolean, ms?: number): () => void;
