import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { getEnv } from "../env";
import { AppError } from "@/common/errors";
import type { StoreDocument } from "./types";

/**
 * Runs the document parsers (PDF, DOCX, CSV and JSON) in worker processes, so a hostile file costs
 * a worker and never the server's event loop or memory. A small pool (PARSE_WORKERS, default:
 * the CPUs, at most 4) bounds how many run at once; each job has a time limit (PARSE_TIMEOUT_MS:
 * the worker is killed) and each worker a heap limit (PARSE_MAX_MEMORY_MB). The caps on pages,
 * inflated size and text are enforced inside the worker (lib/vector/parse-worker/parsers.mjs).
 *
 * Processes rather than worker threads: a thread that reaches its `resourceLimits` heap can abort
 * the whole server (V8 "Reached heap limit" during garbage collection, nodejs/node#47224; seen
 * here with a 40 MiB DOCX under a 64 MiB limit), while a process dies alone.
 *
 * The worker is a plain .mjs file loaded by absolute path from the app's folder: the Next.js
 * build bundles server code, so the worker's file must exist on disk at run time, and vitest
 * runs it the same way. It gets no environment: it needs no secret.
 */

export type ParseKind = "pdf" | "docx" | "csv" | "json" | "split";

export interface ParseJob {
  kind: ParseKind;
  name: string;
  bytes: Buffer;
  opts: Record<string, unknown>;
}

const WORKER_FILE = path.join("lib", "vector", "parse-worker", "worker.mjs");

interface PooledWorker {
  child: ChildProcess;
  memoryMb: number;
  /** The end of its stderr, to tell a heap-limit death from another crash. */
  stderr: string;
  /** Retires it after a while idle: a worker that read a big file holds its memory. */
  idleTimer?: NodeJS.Timeout;
}

const IDLE_MS = 30_000;

const idle: PooledWorker[] = [];
const waiting: (() => void)[] = [];
let running = 0;
let nextJobId = 1;

function workerPath(): string {
  // turbopackIgnore: the worker is started from disk at run time, not bundled (see above).
  const file = path.join(/* turbopackIgnore: true */ process.cwd(), WORKER_FILE);
  if (!fs.existsSync(file))
    throw new Error(`The document parser ${file} is missing: start the server from the app's folder.`);
  return file;
}

/** Lets an idle worker not keep the server (or a test run) alive, and a busy one do so. */
function setRef(pooled: PooledWorker, on: boolean): void {
  const handles = [pooled.child, pooled.child.channel, pooled.child.stderr] as (
    | { ref(): void; unref(): void }
    | null
    | undefined
  )[];
  for (const h of handles) if (h) on ? h.ref() : h.unref();
}

function spawn(memoryMb: number): PooledWorker {
  const child = fork(/* turbopackIgnore: true */ workerPath(), [], {
    execArgv: [`--max-old-space-size=${memoryMb}`],
    env: { NODE_ENV: process.env.NODE_ENV ?? "production" },
    serialization: "advanced",
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  const pooled: PooledWorker = { child, memoryMb, stderr: "" };
  child.stderr?.on("data", (chunk: Buffer) => (pooled.stderr = (pooled.stderr + chunk.toString()).slice(-2000)));
  // A worker that dies while idle just leaves the pool.
  child.on("exit", () => {
    const i = idle.indexOf(pooled);
    if (i >= 0) idle.splice(i, 1);
  });
  child.on("error", () => child.kill("SIGKILL"));
  return pooled;
}

/** An idle worker with the current heap limit (others are retired), or a new one. */
function checkout(memoryMb: number): PooledWorker {
  for (let w = idle.pop(); w; w = idle.pop()) {
    clearTimeout(w.idleTimer);
    if (w.memoryMb === memoryMb && w.child.connected) return w;
    w.child.kill("SIGKILL");
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

/** Why a worker died, as the caller's problem: its heap limit is 413, any other crash 422. */
function workerDied(job: ParseJob, pooled: PooledWorker, how: string): AppError {
  if (/heap out of memory|Reached heap limit|Allocation failed/i.test(pooled.stderr)) {
    return new AppError(
      "payload_too_large",
      `${job.name}: reading it needs more than ${pooled.memoryMb} MiB of memory (PARSE_MAX_MEMORY_MB).`,
    );
  }
  return new AppError("unprocessable", `${job.name}: the parser stopped (${how}).`);
}

type WorkerAnswer = {
  id: number;
  ok: boolean;
  docs?: StoreDocument[];
  /** "internal": a parser library no longer does what we rely on (parse-worker/problem.mjs, BrokenParser). */
  code?: "unprocessable" | "payload_too_large" | "internal";
  message?: string;
};

/** A worker's refusal: the file's problem (422, 413), or a broken parser library, which is our bug (500, logged). */
function refusal(job: ParseJob, m: WorkerAnswer): Error {
  if (m.code === "internal") return new Error(`${job.name}: ${m.message}`);
  return new AppError(m.code ?? "unprocessable", m.message ?? `${job.name}: could not be read.`);
}

function runOn(pooled: PooledWorker, job: ParseJob): Promise<StoreDocument[]> {
  const env = getEnv();
  const { child } = pooled;
  const id = nextJobId++;
  return new Promise((resolve, reject) => {
    const finish = (keep: boolean) => {
      clearTimeout(timer);
      child.off("message", onMessage).off("close", onClose);
      if (!keep) return void child.kill("SIGKILL");
      setRef(pooled, false);
      idle.push(pooled);
      pooled.idleTimer = setTimeout(() => child.kill("SIGKILL"), IDLE_MS).unref();
    };
    const onMessage = (m: WorkerAnswer) => {
      if (m.id !== id) return;
      finish(true);
      if (m.ok) resolve(m.docs ?? []);
      else reject(refusal(job, m));
    };
    // "close" comes after the exit and the end of stderr, which tells why it died.
    const onClose = (code: number | null, signal: string | null) => {
      finish(false);
      reject(workerDied(job, pooled, signal ? `signal ${signal}` : `exit code ${code}`));
    };
    const timer = setTimeout(() => {
      finish(false);
      reject(
        new AppError(
          "unprocessable",
          `${job.name}: reading it took longer than ${env.PARSE_TIMEOUT_MS} ms (PARSE_TIMEOUT_MS); it was stopped.`,
        ),
      );
    }, env.PARSE_TIMEOUT_MS);
    child.on("message", onMessage).on("close", onClose);
    setRef(pooled, true);
    const limits = {
      maxPdfPages: env.UPSERT_MAX_PDF_PAGES,
      maxInflatedBytes: env.UPSERT_MAX_INFLATED_BYTES,
      maxTextBytes: env.UPSERT_MAX_TEXT_BYTES,
    };
    child.send({
      id,
      kind: job.kind,
      name: job.name,
      bytes: new Uint8Array(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength),
      opts: job.opts,
      limits,
    });
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
