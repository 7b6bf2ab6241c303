"use client";

import { useCallback, useEffect, useState } from "react";
import { z } from "zod";
import { api } from "@/browser/client/api";
import {
  clearedStoreResponseSchema,
  upsertResponseSchema,
  vectorStoreResponseSchema,
} from "@/common/schemas/responses";
import { Button, ErrorNote } from "@/components/ui/controls";
import { uploadToStore, type UpsertSummary } from "./upload";
import { useConfirm } from "@/components/ui/ConfirmDialog";

type StoreInfo = z.output<typeof vectorStoreResponseSchema>;
const storeListSchema = z.array(vectorStoreResponseSchema);

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
  savedFiles = 0,
}: {
  chatflowId: string;
  nodeId: string;
  dirty?: boolean;
  /** Loaders with a file saved in the graph feeding this store: offers "Index saved files". */
  savedFiles?: number;
}) {
  const confirm = useConfirm();
  const [info, setInfo] = useState<StoreInfo | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<UpsertSummary | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [indexing, setIndexing] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const stores = await api(`/api/v1/vector/stores/${chatflowId}`, { schema: storeListSchema });
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

  /** Upserts the loaders' saved files into this store: a request without files uses them (lib/vector/loaders.ts). */
  async function indexSaved() {
    setError(null);
    setResult(null);
    setIndexing(true);
    try {
      setResult(
        await api(`/api/v1/vector/upsert/${encodeURIComponent(chatflowId)}?version=draft`, {
          method: "POST",
          schema: upsertResponseSchema,
          body: { stopNodeId: nodeId },
        }),
      );
      await refresh();
    } catch (e) {
      setError(e);
    } finally {
      setIndexing(false);
    }
  }

  async function clear() {
    const yes = await confirm({
      title: "Delete every chunk this store holds?",
      message: "Answers stop finding them until the documents are upserted again.",
      confirmLabel: "Delete chunks",
    });
    if (!yes) return;
    setError(null);
    try {
      await api(`/api/v1/vector/stores/${chatflowId}/${encodeURIComponent(nodeId)}`, {
        method: "DELETE",
        schema: clearedStoreResponseSchema,
      });
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
      {savedFiles > 0 && (
        <Button
          variant="secondary"
          onClick={() => void indexSaved()}
          disabled={!info || indexing || progress !== null}
          aria-busy={indexing}
          title={`Index the file${savedFiles === 1 ? "" : "s"} saved on the ${savedFiles} connected loader${savedFiles === 1 ? "" : "s"}`}
        >
          {indexing ? (
            <>
              <span
                aria-hidden
                className="h-3 w-3 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600"
              />
              Indexing…
            </>
          ) : (
            `Index saved files (${savedFiles})`
          )}
        </Button>
      )}
      {progress !== null && <progress max={1} value={progress} aria-label="Upload progress" className="w-full" />}
      {result && (
        <p role="status" data-testid="store-upsert-result">
          Added {result.numAdded}, updated {result.numUpdated ?? 0}, skipped {result.numSkipped}, replaced{" "}
          {result.numDeleted}.
        </p>
      )}
      <ErrorNote error={error} />
      <Button variant="danger" onClick={() => void clear()} disabled={!info || info.chunks === 0}>
        Clear store
      </Button>
    </section>
  );
}
