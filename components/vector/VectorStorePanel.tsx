"use client";

import { useCallback, useEffect, useState } from "react";
import { api } from "@/lib/client/api";
import { Button, ErrorNote } from "@/components/ui/controls";
import { uploadToStore, type UpsertSummary } from "./upload";

type StoreInfo = { nodeId: string; label: string; storeType: "vector" | "keyword"; chunks: number };

const ACCEPT = ".pdf,.docx,.csv,.json,.jsonl,.md,.markdown,.txt";

/**
 * Per store node (vector or keyword store): how many chunks it holds, an upload that upserts into
 * this node only (with progress), and a button to clear it. Works on the saved flow. Marked
 * `nodrag` so it can sit inside a React Flow node (under FlowNode's params for nodes declaring the
 * `store` capability).
 */
export function VectorStorePanel({
  chatflowId,
  nodeId,
  dirty = false,
}: {
  chatflowId: string;
  nodeId: string;
  dirty?: boolean;
}) {
  const [info, setInfo] = useState<StoreInfo | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<UpsertSummary | null>(null);
  const [error, setError] = useState<unknown>(null);

  const refresh = useCallback(async () => {
    try {
      const stores = await api<StoreInfo[]>(`/api/v1/vector/stores/${chatflowId}`);
      setInfo(stores.find((s) => s.nodeId === nodeId) ?? null);
    } catch (e) {
      setError(e);
    }
  }, [chatflowId, nodeId]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  async function upload(files: File[]) {
    if (!files.length) return;
    setError(null);
    setResult(null);
    setProgress(0);
    try {
      setResult(await uploadToStore(chatflowId, nodeId, files, setProgress));
      await refresh();
    } catch (e) {
      setError(e);
    } finally {
      setProgress(null);
    }
  }

  async function clear() {
    if (!window.confirm("Delete every chunk this store holds?")) return;
    setError(null);
    try {
      await api(`/api/v1/vector/stores/${chatflowId}/${encodeURIComponent(nodeId)}`, { method: "DELETE" });
      setResult(null);
      await refresh();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section
      aria-label="Stored documents"
      className="nodrag flex flex-col gap-2 border-t border-slate-200 px-3 py-2 text-xs"
    >
      <p data-testid="store-chunk-count">
        {info
          ? `${info.chunks.toLocaleString()} chunk${info.chunks === 1 ? "" : "s"} stored`
          : "Save the flow to use this store."}
      </p>
      {dirty && <p className="text-amber-700">Unsaved changes: uploads use the saved flow.</p>}
      <label className="flex flex-col gap-1">
        <span className="font-medium text-slate-700">Upload files</span>
        <input
          type="file"
          multiple
          accept={ACCEPT}
          disabled={!info || progress !== null}
          onChange={(e) => {
            void upload([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
        />
      </label>
      {progress !== null && <progress max={1} value={progress} aria-label="Upload progress" className="w-full" />}
      {result && (
        <p role="status">
          Added {result.numAdded}, skipped {result.numSkipped}, replaced {result.numDeleted}
          {result.numUpdated ? `, updated ${result.numUpdated}` : ""}.
        </p>
      )}
      <ErrorNote error={error} />
      <Button variant="danger" onClick={() => void clear()} disabled={!info || info.chunks === 0}>
        Clear store
      </Button>
    </section>
  );
}
