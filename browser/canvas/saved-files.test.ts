import { describe, expect, it } from "vitest";
import type { EditorNode } from "@/browser/canvas/types";
import { savedFilesInto } from "./saved-files";

const node = (id: string, inputs: Record<string, unknown>): EditorNode => ({
  id,
  type: "flowNode",
  position: { x: 0, y: 0 },
  data: { defName: "x", inputs },
});

describe("savedFilesInto", () => {
  it("counts the connected nodes holding a saved file, not other nodes or empty files", () => {
    const nodes = [
      node("guide", { file: "# Guide" }),
      node("pdf", { file: "" }),
      node("docx", { file: "data:application/pdf;base64,AA==" }),
      node("elsewhere", { file: "# Other" }),
      node("embeddings", {}),
      node("store", {}),
    ];
    const edges = [
      { source: "guide", target: "store" },
      { source: "pdf", target: "store" },
      { source: "docx", target: "store" },
      { source: "embeddings", target: "store" },
      { source: "elsewhere", target: "other" },
    ];
    expect(savedFilesInto({ nodes, edges }, "store")).toBe(2);
    expect(savedFilesInto({ nodes, edges }, "other")).toBe(1);
    expect(savedFilesInto({ nodes, edges: [] }, "store")).toBe(0);
  });
});
