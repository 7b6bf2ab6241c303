"use client";

import { ViewportPortal } from "@xyflow/react";
import type { EditorState } from "@/browser/canvas/editor-store";
import { useEditorState, useEditorStore } from "./editor-context";

const selectNotes = (s: EditorState) => s.notes;

/**
 * Canvas notes (imported Flowise sticky notes) at their flow positions, under the nodes. They are
 * text only: never validated, built or run; the builder can remove them.
 */
export function CanvasNotes() {
  const store = useEditorStore();
  const notes = useEditorState(selectNotes);
  if (!notes.length) return null;
  return (
    <ViewportPortal>
      {notes.map((note) => (
        <aside
          key={note.id}
          aria-label="Canvas note"
          data-testid="canvas-note"
          className="absolute w-56 rounded-md border border-amber-200 bg-amber-50 p-2 text-xs text-amber-950 shadow-sm"
          style={{ transform: `translate(${note.position.x}px, ${note.position.y}px)` }}
        >
          <button
            type="button"
            aria-label="Remove note"
            onClick={() => store.removeNote(note.id)}
            className="float-right ml-1 rounded px-1 text-amber-700 hover:bg-amber-100"
          >
            ✕
          </button>
          <p className="whitespace-pre-wrap break-words">{note.text || "(empty note)"}</p>
        </aside>
      ))}
    </ViewportPortal>
  );
}
