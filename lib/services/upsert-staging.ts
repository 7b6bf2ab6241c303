import fs from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/common/errors";
import { getEnv } from "../env";
import type { UpsertFile } from "../vector/types";

/**
 * An upsert's uploaded files on their way to a queue worker: written under DATA_DIR/staging/<job id>
 * (a volume API processes and workers share) by the API process, read back by the worker, and
 * removed by both (whichever comes last), or by the sweep at worker start for a process that died.
 */

/** A staged upload: the file's description and where its bytes wait. */
export interface StagedFile {
  name: string;
  mime: string;
  ext: string;
  path: string;
}

const stagingRoot = () => path.resolve(getEnv().DATA_DIR, "staging");

/** Writes `files` under the staging dir of `jobId`; answers that dir (undefined without files) and the staged files. */
export async function stageFiles(
  jobId: string,
  files: UpsertFile[],
): Promise<{ stagingDir?: string; staged: StagedFile[] }> {
  if (!files.length) return { staged: [] };
  const stagingDir = path.join(stagingRoot(), jobId);
  const staged: StagedFile[] = [];
  try {
    await fs.mkdir(stagingDir, { recursive: true });
    for (const [i, f] of files.entries()) {
      const file = path.join(stagingDir, String(i));
      await fs.writeFile(file, f.bytes);
      staged.push({ name: f.name, mime: f.mime, ext: f.ext, path: file });
    }
  } catch (err) {
    await removeStaging(stagingDir);
    throw err;
  }
  return { stagingDir, staged };
}

/** Reads staged files back (on the worker). Only files under the staging root are read. */
export async function readStagedFiles(files: StagedFile[]): Promise<UpsertFile[]> {
  const root = stagingRoot();
  const out: UpsertFile[] = [];
  for (const f of files) {
    // Job data is ours, but a path is checked before it is read.
    const resolved = path.resolve(f.path);
    if (!resolved.startsWith(root + path.sep))
      throw new AppError("bad_request", `${f.name}: staged file outside ${root}`);
    const bytes = await fs.readFile(resolved).catch(() => {
      throw new AppError(
        "bad_request",
        `${f.name}: the staged upload is gone (is DATA_DIR a volume shared by API and workers?)`,
      );
    });
    out.push({ name: f.name, mime: f.mime, ext: f.ext, bytes });
  }
  return out;
}

/** Removes a staging dir (nothing outside the staging root; none given: nothing). */
export async function removeStaging(stagingDir: string | undefined): Promise<void> {
  if (!stagingDir) return;
  const dir = path.resolve(stagingDir);
  if (dir.startsWith(stagingRoot() + path.sep)) await fs.rm(dir, { recursive: true, force: true });
}

/**
 * Removes staging dirs older than JOB_TIMEOUT_MS × 2 (no request waits for their job any more):
 * left by an API process that died while it waited. Run at worker start. Returns the names removed.
 */
export async function sweepStaleStaging(now = Date.now()): Promise<string[]> {
  const root = stagingRoot();
  const maxAgeMs = getEnv().JOB_TIMEOUT_MS * 2;
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  const removed: string[] = [];
  for (const entry of entries) {
    const dir = path.join(root, entry.name);
    const stat = await fs.stat(dir).catch(() => undefined);
    if (!stat || now - stat.mtimeMs <= maxAgeMs) continue;
    await fs.rm(dir, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}
