import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { CHUNKS_PER_FILE, FILES_PER_UPSERT } from "./support/upsert-child";

// A process killed with SIGKILL in the middle of an upsert must leave the store with the whole
// upsert or none of it, and the database must open and take the next upsert. The kills land at
// seeded random moments; what is asserted never depends on where they land.

const CHILD = path.join(import.meta.dirname, "support", "upsert-child.ts");
const ROUNDS = 4;

/** mulberry32: a small seeded generator, so every run kills at the same fractions. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Event = {
  chatflowId?: string;
  counts?: Record<string, number>;
  started?: string[];
  done?: string[];
  numAdded?: number;
};

/** The child's JSON events, one at a time. */
function startChild(tag: string, env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", CHILD, tag], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const started: string[][] = [];
  const next = async (): Promise<Event | undefined> => {
    const { value, done } = await lines.next();
    if (done) return undefined;
    const event = JSON.parse(value as string) as Event;
    if (event.started) started.push(event.started);
    return event;
  };
  return {
    child,
    /** Every upsert the child began, as far as its output was read. */
    started,
    async next(): Promise<Event> {
      const event = await next();
      if (!event) throw new Error(`upsert child ended early (exit ${child.exitCode}): ${stderr.slice(-2000)}`);
      return event;
    },
    /** Kills the child and reads the rest of its output (it may have begun more upserts meanwhile). */
    async kill(): Promise<NodeJS.Signals | null> {
      child.kill("SIGKILL");
      await exited;
      while (await next());
      return child.signalCode;
    },
  };
}

/** The database for the children: the file's PostgreSQL database, or a PGlite data dir on disk. */
function childEnv(): NodeJS.ProcessEnv {
  const dataDir = fs.mkdtempSync(path.join(process.env.DATA_DIR!, "kill-"));
  const onServer = process.env.DATABASE_URL?.startsWith("postgres");
  return {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: onServer ? process.env.DATABASE_URL : `pglite:${path.join(dataDir, "pglite")}`,
  };
}

/** Every upsert the children started is stored whole (every file, every chunk) or not at all. */
function expectWholeOrNothing(counts: Record<string, number>, upserts: string[][]) {
  const known = new Set(upserts.flat());
  expect(Object.keys(counts).filter((s) => !known.has(s))).toEqual([]);
  for (const files of upserts) {
    const stored = files.map((f) => counts[f] ?? 0);
    const whole = files.map(() => CHUNKS_PER_FILE);
    const none = files.map(() => 0);
    expect([whole, none], `upsert of ${files.join(", ")}: chunks per file ${stored.join(", ")}`).toContainEqual(stored);
  }
}

const running: ChildProcess[] = [];
afterAll(() => {
  for (const c of running) if (c.exitCode === null) c.kill("SIGKILL");
});

describe("kill -9 during upserts", () => {
  it(`leaves each upsert whole or absent after ${ROUNDS} seeded kills, and the next upsert succeeds`, async () => {
    const env = childEnv();
    const random = seeded(20261123);
    const upserts: string[][] = [];
    let kills = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const proc = startChild(`r${round}`, env);
      running.push(proc.child);
      const opened = await proc.next();
      expectWholeOrNothing(opened.counts!, upserts);

      // The reopened database takes a new upsert in full.
      const first = await proc.next();
      const t0 = performance.now();
      const done = await proc.next();
      expect(done).toEqual({ done: first.started, numAdded: FILES_PER_UPSERT * CHUNKS_PER_FILE });
      const upsertMs = performance.now() - t0;
      if (round < ROUNDS) {
        // Kill at a seeded moment of the next upsert (or just after it, when it is quick).
        await proc.next();
        await new Promise((r) => setTimeout(r, random() * upsertMs * 1.5));
        expect(await proc.kill()).toBe("SIGKILL");
        kills++;
      } else {
        await proc.kill();
      }
      upserts.push(...proc.started);
    }
    expect(kills).toBe(ROUNDS);
  }, 300_000);
});
