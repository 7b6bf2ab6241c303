import { randomUUID } from "node:crypto";
import { AppError } from "@/common/errors";
import { type JobEvent, runJob } from "../queue/client";
import type { QueueName } from "../queue/names";
import type { ProcessorContext } from "../queue/worker";
import { inSpan, tracingOn } from "../telemetry/traces";

/**
 * Where the work of a run happens, chosen once from the configuration (lib/jobs/index.ts): in this
 * process, or on a queue worker through Redis (MODE=queue). A service describes its kind of run once
 * (RunKind: prepare, then execute) and starts runs through the transport; it never asks which one.
 */

/** What the work of a run gets, wherever it runs. */
export interface RunContext {
  /** The queued job's id (a retried job keeps it); undefined for a run in this process. */
  jobId?: string;
  /** 1 for the first try; 2 when a worker died running it and another took it over. */
  attempt: number;
  signal?: AbortSignal;
  /** Sends an event to whoever waits for the run (tokens, tool starts…). Never throws. */
  emit(name: string, data: unknown): void;
}

/**
 * A kind of run. `input` is plain JSON: on a queue it crosses Redis to a worker. `prepare` loads and
 * checks what the run needs (a 4xx it throws in this process is answered before any answer starts);
 * `execute` does the work and stores it. `known` is what the starting process already loaded for the
 * input (in this process only: a worker loads it again), so prepare need not read it twice.
 */
export interface RunKind<I, P, R, K = never> {
  queue: QueueName;
  prepare(input: I, known?: K): Promise<P>;
  execute(prepared: P, ctx: RunContext): Promise<R>;
  /**
   * Queue only, before the input is queued: puts into it what must cross to the worker besides plain
   * JSON, from what this process knows (an upsert's uploaded files, staged on the volume API processes
   * and workers share, under `runId`, the queued job's id). `release` runs once the wait for the run
   * ends, whatever its outcome.
   */
  handOver?(input: I, known: K | undefined, runId: string): Promise<{ input: I; release(): Promise<void> }>;
}

/** A started run: prepared here, or handed over when executed. */
export interface StartedRun<R> {
  execute(opts: {
    signal?: AbortSignal;
    /** Each event the run emits, as it comes. */
    onEvent?: (name: string, data: unknown) => void;
  }): Promise<R>;
}

export interface RunTransport {
  readonly kind: "in-process" | "queue";
  /** Starts a run of `kind`: prepares it now (in this process) or when a worker takes it (queue). */
  start<I, P, R, K>(
    kind: RunKind<I, P, R, K>,
    input: I,
    opts?: { requestId?: string; known?: K },
  ): Promise<StartedRun<R>>;
}

/** Runs in this process: prepared at once, executed when asked. */
export const inProcessTransport: RunTransport = {
  kind: "in-process",
  async start(kind, input, opts = {}) {
    const prepared = await kind.prepare(input, opts.known);
    return {
      execute: ({ signal, onEvent }) =>
        traceRun(kind.queue, input, () =>
          kind.execute(prepared, { attempt: 1, signal, emit: (name, data) => onEvent?.(name, data) }),
        ),
    };
  },
};

/**
 * Runs on queue workers: the input is queued when executed and the worker prepares and executes it
 * (runOnWorker); its events are relayed. A run retried on another worker after some of its events were
 * relayed cannot be shown whole: it fails with 503 `worker_lost` (the retry still finishes and stores).
 */
export const queueTransport: RunTransport = {
  kind: "queue",
  async start(kind, input, opts = {}) {
    return {
      async execute({ signal, onEvent }) {
        const jobId = randomUUID();
        const handed = kind.handOver ? await kind.handOver(input, opts.known, jobId) : undefined;
        try {
          return await relay(kind.queue, handed?.input ?? input, { jobId, signal, onEvent, requestId: opts.requestId });
        } finally {
          await handed?.release();
        }
      },
    };
  },
};

/** Runs a queued job to its result, relaying its events (see queueTransport). */
function relay<R>(
  queue: QueueName,
  input: unknown,
  opts: { jobId: string; signal?: AbortSignal; requestId?: string; onEvent?: (name: string, data: unknown) => void },
): Promise<R> {
  const { signal, onEvent } = opts;
  let relayed = 0;
  return runJob<R>(queue, input, {
    jobId: opts.jobId,
    ...(signal ? { signal } : {}),
    ...(opts.requestId ? { requestId: opts.requestId } : {}),
    onEvent: (event: JobEvent) => {
      if (event.type === "attempt" && event.attempt > 1 && relayed > 0)
        throw new AppError(
          "worker_lost",
          "The answer was interrupted (its worker stopped) and is being retried; the chat history will hold it.",
        );
      if (event.type === "event" && onEvent) {
        relayed++;
        onEvent(event.name, event.data);
      }
    },
  });
}

/** A worker's processor for a kind of run: prepare, then execute, in the worker's context. */
export function runOnWorker<I, P, R, K>(kind: RunKind<I, P, R, K>) {
  return (input: I, ctx: ProcessorContext): Promise<R> =>
    traceRun(
      kind.queue,
      input,
      async () =>
        kind.execute(await kind.prepare(input), {
          jobId: ctx.jobId,
          attempt: ctx.attempt,
          signal: ctx.signal,
          emit: ctx.emit,
        }),
      ctx,
    );
}

/**
 * The run's span (`run predictions`…), with what its input says of it: the flow, the session, the
 * job and attempt on a worker. Its parent is the request's span, here or (through the job's
 * `traceparent`) in the API process that queued it.
 */
function traceRun<R>(queue: QueueName, input: unknown, run: () => Promise<R>, job?: ProcessorContext): Promise<R> {
  if (!tracingOn()) return run();
  const fields = (input ?? {}) as { chatflowId?: unknown; sessionId?: unknown; chatId?: unknown };
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  return inSpan(
    `run ${queue}`,
    {
      "switchyard.run.kind": queue,
      "switchyard.flow.id": text(fields.chatflowId),
      "session.id": text(fields.sessionId),
      "switchyard.chat.id": text(fields.chatId),
      "switchyard.job.id": job?.jobId,
      "switchyard.job.attempt": job?.attempt,
    },
    run,
  );
}
