import { describe, expect, it } from "vitest";
import { contentHash, planUpsert, type StoredRecord } from "./record-manager";

const doc = (source: string, text: string, extra: Record<string, unknown> = {}) => ({
  pageContent: text,
  metadata: { source, ...extra },
});
const stored = (id: string, source: string, text: string, metadata: unknown = { source }): StoredRecord => ({
  id,
  source,
  contentHash: contentHash(text),
  metadata,
});

describe("planUpsert", () => {
  it("adds new chunks and skips duplicates inside one batch", () => {
    const plan = planUpsert([doc("a.md", "one"), doc("a.md", "two"), doc("a.md", "one")], [], "incremental");
    expect(plan.add.map((c) => c.document.pageContent)).toEqual(["one", "two"]);
    expect(plan.numSkipped).toBe(1);
    expect(plan.deleteIds).toEqual([]);
  });

  it("skips chunks already stored and updates those whose metadata changed", () => {
    const plan = planUpsert(
      [doc("a.md", "one"), doc("a.md", "two", { page: 2 })],
      [stored("1", "a.md", "one"), stored("2", "a.md", "two", { source: "a.md", page: 1 })],
      "incremental",
    );
    expect(plan).toMatchObject({ add: [], numSkipped: 1, deleteIds: [] });
    expect(plan.update).toEqual([{ id: "2", document: doc("a.md", "two", { page: 2 }) }]);
  });

  it("incremental: replaces the old chunks of a re-upserted source, keeps other sources", () => {
    const plan = planUpsert(
      [doc("a.md", "new text")],
      [stored("1", "a.md", "old text"), stored("2", "b.md", "other")],
      "incremental",
    );
    expect(plan.add).toHaveLength(1);
    expect(plan.deleteIds).toEqual(["1"]);
  });

  it("full: deletes every chunk not in the batch; none: deletes nothing", () => {
    const before = [stored("1", "a.md", "old text"), stored("2", "b.md", "other")];
    expect(planUpsert([doc("a.md", "new text")], before, "full").deleteIds).toEqual(["1", "2"]);
    expect(planUpsert([doc("a.md", "new text")], before, "none").deleteIds).toEqual([]);
  });
});
