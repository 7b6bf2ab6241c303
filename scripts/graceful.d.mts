/** Types of graceful.mjs (plain ESM so scripts/start.mjs can run it under node). */
export declare const DEFAULT_SHUTDOWN_GRACE_MS: number;
export declare function graceFromEnv(raw: string | undefined): number;
export type ConnectionTracker = {
  /** Stops accepting, lets open requests finish; resolves when they did or the grace period ran out. */
  shutdown(): Promise<{ timedOut: boolean }>;
  /** Requests being served now. */
  inFlight(): number;
};
export declare function trackConnections(
  server: import("node:http").Server,
  options?: { graceMs?: number },
): ConnectionTracker;
export declare function gracefulShutdown(
  server: import("node:http").Server,
  options?: {
    graceMs?: number;
    exit?: (code: number) => void;
    signals?: NodeJS.Signals[];
    log?: (line: string) => void;
  },
): ConnectionTracker & {
  onSignal(signal: string): void /** Whether a signal has started the shutdown. */;
  stopping(): boolean;
};
