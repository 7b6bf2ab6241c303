import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { FromWorker, RunMessage, SandboxFetch, SandboxFailure, SandboxOutcome, ToWorker } from "./types";

/**
 * A pool of worker threads that run user code in QuickJS (worker.mjs, engine.mjs). The server's
 * event loop only passes messages: an endless loop spins a worker, never the thread that answers
 * HTTP. At most `workers` runs execute at once; further runs wait in order.
 *
 * Threads, not processes (the document parsers use processes, lib/vector/parse-pool.ts): user code
 * allocates in a WebAssembly memory with a fixed maximum (engine.mjs), never on the thread's V8 heap,
 * so the V8 heap-limit abort that makes parser threads unsafe does not arise, and no
 * `resourceLimits` heap is set for the same reason. Each worker gets an 8 MiB stack (QuickJS's is
 * 512 KiB, engine.mjs), no environment, and a lower CPU priority than this thread (worker.mjs).
 *
 * A worker that does not answer within its run's time limit plus GRACE_MS (QuickJS stuck in native
 * code) is terminated and its run answered `timeout`; a worker that dies is replaced on the next run.
 */

const WORKER_FILE = path.join("lib", "sandbox", "worker.mjs");
/** How long past a run's time limit the pool waits for its worker before terminating it. */
const GRACE_MS = 2_000;
const STACK_MB = 8;

interface Job {
  message: RunMessage;
  fetch?: SandboxFetch;
  resolve: (outcome: SandboxOutcome) => void;
}

interface PoolWorker {
  thread: Worker;
  ready: boolean;
  job?: Job;
  /** The backstop of the running job's time limit. */
  timer?: NodeJS.Timeout;
  idleTimer?: NodeJS.Timeout;
}

export interface SandboxPoolOptions {
  /** Runs at once (worker threads). */
  workers: number;
  /** An idle worker is retired after this long (its QuickJS heap keeps the memory it grew to). */
  idleMs?: number;
}

function workerFile(): string {
  // turbopackIgnore: the worker is started from disk at run time, not bundled (like the parse worker).
  const file = path.join(/* turbopackIgnore: true */ process.cwd(), WORKER_FILE);
  if (!fs.existsSync(file))
    throw new Error(`The sandbox worker ${file} is missing: start the server from the app's folder.`);
  return file;
}

const failed = (error: SandboxFailure): SandboxOutcome => ({ ok: false, error, console: [], consoleTruncated: false });

export class SandboxPool {
  private readonly workers = new Set<PoolWorker>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SandboxPoolOptions) {}

  /** Runs one job; resolves with its outcome, never rejects for what the user's code does. */
  run(message: Omit<RunMessage, "type" | "id">, fetch?: SandboxFetch): Promise<SandboxOutcome> {
    if (this.closed) return Promise.resolve(failed({ kind: "error", message: "the sandbox is shut down" }));
    return new Promise((resolve) => {
      this.queue.push({ message: { type: "run", id: this.nextId++, ...message }, fetch, resolve });
      this.dispatch();
    });
  }

  /** The worker threads now alive (for tests and health checks). */
  threads(): Worker[] {
    return [...this.workers].map((w) => w.thread);
  }

  /** Stops every worker; waiting runs are answered with an error. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(failed({ kind: "error", message: "the sandbox is shut down" }));
    await Promise.all([...this.workers].map((w) => w.thread.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = [...this.workers].find((w) => w.ready && !w.job);
      if (idle) this.start(idle, this.queue.shift()!);
      else if (this.workers.size < this.options.workers) this.spawn(this.queue.shift()!);
      else return;
    }
  }

  /** A new worker that takes `job` once QuickJS is loaded. */
  private spawn(job: Job): void {
    const thread = new Worker(workerFile(), {
      env: {},
      resourceLimits: { stackSizeMb: STACK_MB },
    });
    const worker: PoolWorker = { thread, ready: false, job };
    this.workers.add(worker);
    thread.on("message", (m: FromWorker) => this.onMessage(worker, m));
    thread.on("error", (e) => this.onGone(worker, `the sandbox's worker failed: ${e.message}`));
    thread.on("exit", (code) => this.onGone(worker, `the sandbox's worker stopped (exit code ${code})`));
  }

  private start(worker: PoolWorker, job: Job): void {
    clearTimeout(worker.idleTimer);
    worker.job = job;
    worker.thread.ref();
    worker.timer = setTimeout(() => {
      const { timeoutMs } = job.message.limits;
      this.finish(worker, failed({ kind: "timeout", limitMs: timeoutMs, message: timeoutMessage(timeoutMs) }));
      this.retire(worker);
    }, job.message.limits.timeoutMs + GRACE_MS);
    this.post(worker, job.message);
  }

  private onMessage(worker: PoolWorker, m: FromWorker): void {
    if (m.type === "ready") {
      worker.ready = true;
      if (worker.job) this.start(worker, worker.job);
      else this.dispatch();
    } else if (m.type === "fetch") {
      this.callFetch(worker, m);
    } else if (m.type === "done" && worker.job?.message.id === m.id) {
      this.finish(worker, m.outcome);
      if (m.retire) this.retire(worker);
      else this.idle(worker);
    }
  }

  /** Calls the run's fetch capability on this thread and hands the answer back. */
  private callFetch(worker: PoolWorker, m: Extract<FromWorker, { type: "fetch" }>): void {
    const job = worker.job;
    const answer = (a: Omit<Extract<ToWorker, { type: "fetch-answer" }>, "type" | "id" | "callId">) =>
      this.post(worker, { type: "fetch-answer", id: m.id, callId: m.callId, ...a });
    if (!job?.fetch || job.message.id !== m.id) {
      answer({ error: "fetch is not available" });
      return;
    }
    job.fetch(m.request).then(
      (response) => answer({ response }),
      (e: unknown) => answer({ error: e instanceof Error ? e.message : String(e) }),
    );
  }

  private finish(worker: PoolWorker, outcome: SandboxOutcome): void {
    clearTimeout(worker.timer);
    const job = worker.job;
    worker.job = undefined;
    job?.resolve(outcome);
  }

  private idle(worker: PoolWorker): void {
    worker.thread.unref();
    worker.idleTimer = setTimeout(() => this.retire(worker), this.options.idleMs ?? 60_000);
    worker.idleTimer.unref();
    this.dispatch();
  }

  private retire(worker: PoolWorker): void {
    this.workers.delete(worker);
    clearTimeout(worker.idleTimer);
    void worker.thread.terminate();
    this.dispatch();
  }

  /** A worker that failed or exited: its run (if any) is answered, and it leaves the pool. */
  private onGone(worker: PoolWorker, why: string): void {
    if (!this.workers.has(worker) && !worker.job) return;
    this.finish(worker, failed({ kind: "error", message: why }));
    this.retire(worker);
  }

  private post(worker: PoolWorker, message: ToWorker): void {
    worker.thread.postMessage(message);
  }
}

/** The timeout message, the same whether QuickJS stopped the run or the pool stopped its worker. */
export const timeoutMessage = (limitMs: number) => `the function ran longer than ${limitMs} ms (SANDBOX_TIMEOUT_MS)`;
