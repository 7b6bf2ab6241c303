/**
 * The job queue contract. Job data is plain JSON (no functions, no class instances), so a
 * Redis/BullMQ queue with worker processes can replace the in-process runner behind the same
 * interface: `add` becomes `queue.addBulk`, the handler becomes a BullMQ `Worker` processor,
 * `attempts`/`backoffMs` map to BullMQ's job options and `onFailed` to its `failed` event.
 */
export interface JobQueue<T> {
  readonly name: string;
  /**
   * Whether its jobs outlive this process (BullMQ keeps them in Redis through restarts). Those of a
   * queue that is not durable die with the process: it fails the runs they left behind at start.
   */
  readonly durable: boolean;
  /** Enqueues jobs; resolves once they are accepted (not when they finish). */
  add(items: T[]): Promise<void>;
  /** Jobs waiting, waiting for a retry, and running. */
  counts(): { waiting: number; delayed: number; active: number; completed?: number; failed?: number };
  /** Resolves when nothing is waiting, delayed or running (tests and shutdown). */
  drained(): Promise<void>;
}

export interface JobContext {
  /** 1 for the first try. */
  attempt: number;
  attempts: number;
  /** The queued job's id (BullMQ); undefined in the in-process runner. */
  jobId?: string;
}

export interface JobDefinition<T> {
  name: string;
  /** Does the work; throwing fails this attempt. */
  handler: (data: T, ctx: JobContext) => Promise<void>;
  /** Called once when the last attempt failed (or the error was not worth retrying). */
  onFailed?: (data: T, error: unknown) => Promise<void>;
  /** Whether an error is worth another attempt (default: every error). */
  isRetryable?: (error: unknown) => boolean;
  /** Jobs running at the same time (default 4). */
  concurrency?: number;
  /** Tries in all, including the first (default 3). */
  attempts?: number;
  /** Wait before retry n is backoffMs × 2^(n-1) (default 1000). */
  backoffMs?: number;
}
