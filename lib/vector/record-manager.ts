import { createHash } from "node:crypto";
import { stableJson } from "../stable-json";
import type { CleanupMode, StoreDocument } from "./types";

/**
 * The record manager's decisions, as a pure function: which chunks of an upsert are new, which are
 * already stored (skipped), which only changed metadata (updated) and which stored chunks go
 * (cleanup). A chunk is identified by its source and the hash of its text, so upserting the same
 * file twice adds nothing, and a changed file replaces exactly the chunks that changed.
 */

/** A stored chunk as the planner needs it. */
export interface StoredRecord {
  id: string;
  source: string;
  contentHash: string;
  metadata: unknown;
}

export interface PlannedChunk {
  source: string;
  contentHash: string;
  document: StoreDocument;
}

export interface UpsertPlan {
  add: PlannedChunk[];
  update: { id: string; document: StoreDocument }[];
  deleteIds: string[];
  numSkipped: number;
}

/** SHA-256 (hex) of a chunk's text. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** The source a chunk is recorded under. */
export function sourceOf(doc: StoreDocument): string {
  const s = doc.metadata.source;
  return typeof s === "string" && s ? s : "unknown";
}

const keyOf = (source: string, hash: string) => `${source}\u0000${hash}`;

/**
 * Plans an upsert of `documents` against the collection's `stored` records (for `incremental`,
 * at least the records of the sources being upserted; for `full`, all of them).
 */
export function planUpsert(documents: StoreDocument[], stored: StoredRecord[], cleanup: CleanupMode): UpsertPlan {
  const storedByKey = new Map(stored.map((r) => [keyOf(r.source, r.contentHash), r]));
  const batchKeys = new Set<string>();
  const plan: UpsertPlan = { add: [], update: [], deleteIds: [], numSkipped: 0 };
  for (const document of documents) {
    const source = sourceOf(document);
    const hash = contentHash(document.pageContent);
    const key = keyOf(source, hash);
    if (batchKeys.has(key)) {
      plan.numSkipped += 1;
      continue;
    }
    batchKeys.add(key);
    const existing = storedByKey.get(key);
    if (!existing) plan.add.push({ source, contentHash: hash, document });
    else if (stableJson(existing.metadata) !== stableJson(document.metadata))
      plan.update.push({ id: existing.id, document });
    else plan.numSkipped += 1;
  }
  if (cleanup !== "none") {
    const sources = new Set(documents.map(sourceOf));
    for (const r of stored) {
      const inScope = cleanup === "full" || sources.has(r.source);
      if (inScope && !batchKeys.has(keyOf(r.source, r.contentHash))) plan.deleteIds.push(r.id);
    }
  }
  return plan;
}
