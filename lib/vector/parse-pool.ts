import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { getEnv } from "../env";
import { AppError } from "../errors";
import type { StoreDocument } from "./types";

/**
 * Runs the document parsers (PDF, DOCX, CSV, JSON) in worker threads, so a hostile file costs a
 * worker and never the server's event loop. A small pool (PARSE_WORKERS, default: the CPUs, at
 * most 4) bounds how many run at once; each job has a time limit (PARSE_TIMEOUT_MS: the worker is
 * terminated) and each worker a heap limit (PARSE_MAX_MEMORY_MB). The caps on pages, inflated
 * size and text are enforced inside the worker (lib/vector/parse-worker/parsers.mjs).
 *
 * The worker is a plain .mjs file loaded by absolute path from the app's folder: the Next.js
 * build bundles server code, so a worker file must exist on disk at run time, and vitest runs it
 * the same way.
 */

export type ParseKind = "pdf" | "docx" | "csv" | "json";

export interface ParseJob {
  kind: ParseKind;
  name: string;
  bytes: Buffer;
  opts: Record<string, unknown>;
}

const WORKER_FILE = path.join("lib", "vector", "parse-worker", "worker.mjs");

interface PooledWorker {
  worker: Worker;
  memoryMb: number;
}

const idle: PooledWorker[] = [];
const waiting: (() => void)[] = [];
let running = 0;
let nextJobId = 1;

function workerPath(): string {
  const file = path.join(process.cwd(), WORKER_FILE);
  if (!fs.existsSync(file)) throw new Error(`The document parser ${file} is missing: start the server from the app's folder.`);
  return file;
}

function spawn(memoryMb: number): PooledWorker {
  const worker = new Worker(workerPath(), { resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32 } });
  const pooled = { worker, memoryMb };
  // An idle worker that fails must not become an uncaught error of the server: it just leaves the pool.
  const forget = () => {
    const i = idle.indexOf(pooled);
    if (i >= 0) idle.splice(i, 1);
  };
  worker.on("error", forget);
  worker.on("exit", forget);
  return pooled;
}

/** An idle worker with the current heap limit (older ones are retired), or a new one. */
function checkout(memoryMb: number): PooledWorker {
  for (let w = idle.pop(); w; w = idle.pop()) {
    if (w.memoryMb === memoryMb) return w;
    void w.worker.terminate();
  }
  return spawn(memoryMb);
}

async function acquire(size: number): Promise<void> {
  if (running < size) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

/** Hands the slot to the next waiting job, or frees it. */
function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/** Why a worker died, as the caller's problem: out of memory is 413, anything else 422. */
function workerFailure(job: ParseJob, memoryMb: number, e: unknown): AppError {
  if ((e as { code?: string })?.code === "ERR_WORKER_OUT_OF_MEMORY") {
    return new AppError("payload_too_large", `${job.name}: reading it needs more than ${memoryMb} MiB of memory (PARSE_MAX_MEMORY_MB).`);
  }
  const reason = e instanceof Error ? e.message : String(e);
  return new AppError("unprocessable", `${job.name}: the parser stopped (${reason.slice(0, 200)}).`, { cause: e });
}

function runOn(pooled: PooledWorker, job: ParseJob): Promise<StoreDocument[]> {
  const env = getEnv();
  const { worker } = pooled;
  const id = nextJobId++;
  return new Promise((resolve, reject) => {
    const finish = (keep: boolean) => {
      clearTimeout(timer);
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      if (!keep) return void worker.terminate();
      worker.unref();
      idle.push(pooled);
    };
    const onMessage = (m: { id: number; ok: boolean; docs?: StoreDocument[]; code?: "unprocessable" | "payload_too_large"; message?: string }) => {
      if (m.id !== id) return;
      finish(true);
      if (m.ok) resolve(m.docs ?? []);
      else reject(new AppError(m.code ?? "unprocessable", m.message ?? `${job.name}: could not be read.`));
    };
    const onError = (e: unknown) => {
      finish(false);
      reject(workerFailure(job, pooled.memoryMb, e));
    };
    const onExit = (code: number) => onError(new Error(`exit code ${code}`));
    const timer = setTimeout(() => {
      finish(false);
      reject(new AppError("unprocessable", `${job.name}: reading it took longer than ${env.PARSE_TIMEOUT_MS} ms (PARSE_TIMEOUT_MS); it was stopped.`));
    }, env.PARSE_TIMEOUT_MS);
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
    worker.ref();
    // A copy of its own, moved (not cloned) to the worker: the request's buffer may be shared.
    const bytes = new Uint8Array(job.bytes);
    const limits = { maxPdfPages: env.UPSERT_MAX_PDF_PAGES, maxInflatedBytes: env.UPSERT_MAX_INFLATED_BYTES, maxTextBytes: env.UPSERT_MAX_TEXT_BYTES };
    worker.postMessage({ id, kind: job.kind, name: job.name, bytes, opts: job.opts, limits }, [bytes.buffer]);
  });
}

/**
 * Parses one file in the worker pool. Resolves with its documents; rejects with 422 (unreadable,
 * too slow) or 413 (over a cap, out of memory), naming the file and the setting.
 */
export async function parseInWorker(job: ParseJob): Promise<StoreDocument[]> {
  const env = getEnv();
  await acquire(env.PARSE_WORKERS);
  try {
    return await runOn(checkout(env.PARSE_MAX_MEMORY_MB), job);
  } finally {
    release();
  }
}
