import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { processState } from "../state";
import { errorText, log } from "../log";

/**
 * Files kept under `<DATA_DIR>/uploads/<chatflowId>/`: named by the SHA-256 of their content, so an
 * identical upload is stored once per chatflow, and everything of a chatflow lives in one folder
 * that goes with it. A file may be referenced by several messages: it is removed only when none is
 * left (see withUploadsLock).
 */

/** The folder of a chatflow's stored files, relative to the data dir. */
export function chatflowUploadsDir(chatflowId: string): string {
  return path.join("uploads", chatflowId);
}

/**
 * Stores `bytes` as `<relDir>/<sha256>.<ext>` unless that file exists already; returns the relative
 * path. Written to a temporary name and renamed, so a reader never sees a partial file and two
 * concurrent writers of the same content both end with the same complete file.
 */
export async function storeContentAddressed(
  dataDir: string,
  relDir: string,
  bytes: Buffer,
  ext: string,
): Promise<string> {
  const rel = path.join(relDir, `${createHash("sha256").update(bytes).digest("hex")}.${ext}`);
  const full = path.resolve(dataDir, rel);
  if (
    await fs.stat(full).then(
      (s) => s.size === bytes.length,
      () => false,
    )
  )
    return rel;
  await fs.mkdir(path.dirname(full), { recursive: true });
  const tmp = `${full}.${randomUUID()}.tmp`;
  await fs.writeFile(tmp, bytes, { flag: "wx" });
  await fs.rename(tmp, full);
  return rel;
}

/** Removes stored files by relative path; only paths inside `<dataDir>/uploads/` are touched, missing files are fine. */
export async function removeStoredFiles(dataDir: string, relPaths: Iterable<string>): Promise<void> {
  const uploadsDir = path.resolve(dataDir, "uploads");
  await Promise.all(
    [...new Set(relPaths)].map(async (rel) => {
      const full = path.resolve(dataDir, rel);
      if (!full.startsWith(uploadsDir + path.sep)) return;
      await fs
        .rm(full, { force: true })
        .catch((err) => log.warn({ file: rel, reason: errorText(err) }, "could not remove an upload"));
    }),
  );
}

/** Removes every stored file of a chatflow (its uploads folder). */
export async function removeChatflowFiles(dataDir: string, chatflowId: string): Promise<void> {
  const full = path.resolve(dataDir, chatflowUploadsDir(chatflowId));
  if (path.dirname(full) !== path.resolve(dataDir, "uploads")) return;
  await fs
    .rm(full, { recursive: true, force: true })
    .catch((err) => log.warn({ chatflowId, reason: errorText(err) }, "could not remove a chatflow's uploads"));
}

// "uploadLocks" in lib/state/catalogue.ts: per chatflow, the end of the queue and how many calls are in it.
const locks = processState("uploadLocks", () => new Map<string, { tail: Promise<unknown>; callers: number }>());

/**
 * Runs `fn` alone for this chatflow's stored files. Storing a file and recording the message that
 * references it happen under it, and so does "is this file still referenced? then remove it":
 * otherwise a deletion could remove a shared file between a new message's write and its insert.
 * (One process: the embedded default. A queue-mode deployment needs a database lock here.)
 */
export async function withUploadsLock<T>(chatflowId: string, fn: () => Promise<T>): Promise<T> {
  const lock = locks.get(chatflowId) ?? { tail: Promise.resolve(), callers: 0 };
  const run = lock.tail.then(fn, fn);
  lock.tail = run.catch(() => undefined);
  lock.callers++;
  locks.set(chatflowId, lock);
  try {
    return await run;
  } finally {
    if (--lock.callers === 0) locks.delete(chatflowId);
  }
}

/** How many calls hold or wait for a chatflow's uploads lock (0: free): what a test waits on. */
export function uploadsLockCallers(chatflowId: string): number {
  return locks.get(chatflowId)?.callers ?? 0;
}
