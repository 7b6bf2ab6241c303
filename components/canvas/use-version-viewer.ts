"use client";

import { useCallback, useState } from "react";
import type { EditorStore } from "@/browser/canvas/editor-store";
import { loadInto } from "./load-graph";
import type { Chatflow } from "./use-chatflow";
import { fetchVersion } from "./use-versions";

type Toast = (kind: "success" | "error" | "info", text: string) => void;

/**
 * Opens an old version read-only on the canvas and goes back to the draft. Opening another version
 * replaces the canvas, so it waits until unsaved changes are saved or undone.
 */
export function useVersionViewer(args: {
  flow: Chatflow;
  store: EditorStore;
  dirty: boolean;
  toast: Toast;
  fit: () => void;
}) {
  const { flow, store, dirty, toast, fit } = args;
  const [viewing, setViewing] = useState<number | null>(null);

  const showDraft = useCallback(
    (draft: Chatflow) => {
      loadInto(store, draft.graph);
      setViewing(null);
      requestAnimationFrame(fit);
    },
    [store, fit],
  );

  const view = useCallback(
    async (version: number) => {
      if (version === flow.version) {
        if (viewing !== null) showDraft(flow);
        return;
      }
      if (dirty && viewing === null) {
        toast("error", "Save or undo your changes before opening another version.");
        return;
      }
      try {
        const detail = await fetchVersion(flow.id, version);
        loadInto(store, detail.graph);
        setViewing(version);
        requestAnimationFrame(fit);
      } catch (err) {
        toast("error", `Could not open version ${version}: ${err instanceof Error ? err.message : String(err)}`);
      }
    },
    [flow, viewing, dirty, store, toast, fit, showDraft],
  );

  const restored = useCallback(
    (saved: Chatflow) => {
      showDraft(saved);
      toast("success", `Restored as version ${saved.version} (the new draft).`);
    },
    [showDraft, toast],
  );

  return { viewing, view, backToDraft: () => showDraft(flow), restored };
}
