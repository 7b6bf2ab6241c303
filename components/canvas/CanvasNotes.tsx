"use client";

import { useReactFlow, ViewportPortal } from "@xyflow/react";
import { type PointerEvent, useRef } from "react";
import type { EditorState } from "@/browser/canvas/editor-store";
import type { GraphNote } from "@/common/schemas/graph";
import { useEditorState, useEditorStore } from "./editor-context";

const selectNotes = (s: EditorState) => s.notes;

/**
 * Canvas notes (sticky notes the builder wrote, or imported from Flowise) at their flow positions,
 * under the nodes. They are text only: never validated, built or run. The builder writes in them,
 * moves them by their top bar and removes them; `readOnly` (an old version on view) shows them only.
 */
export function CanvasNotes({ readOnly = false }: { readOnly?: boolean }) {
  const notes = useEditorState(selectNotes);
  if (!notes.length) return null;
  return (
    <ViewportPortal>
      {notes.map((note) => (
        <CanvasNote key={note.id} note={note} readOnly={readOnly} />
      ))}
    </ViewportPortal>
  );
}

function CanvasNote({ note, readOnly }: { note: GraphNote; readOnly: boolean }) {
  const store = useEditorStore();
  const rf = useReactFlow();
  const drag = useRef<{ x: number; y: number; from: GraphNote["position"] } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (readOnly || e.button !== 0 || (e.target as HTMLElement).closest("button")) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, from: note.position };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const zoom = rf.getViewport().zoom;
    store.updateNote(note.id, {
      position: { x: d.from.x + (e.clientX - d.x) / zoom, y: d.from.y + (e.clientY - d.y) / zoom },
    });
  };
  const endDrag = () => {
    drag.current = null;
  };
  return (
    <aside
      aria-label="Canvas note"
      data-testid="canvas-note"
      data-note-id={note.id}
      className="nodrag nopan nowheel pointer-events-auto absolute w-56 rounded-md border border-amber-200 bg-amber-50 text-xs text-amber-950 shadow-sm"
      style={{ transform: `translate(${note.position.x}px, ${note.position.y}px)` }}
    >
      <div
        className={`flex items-center justify-between rounded-t-md border-b border-amber-200 bg-amber-100 px-2 py-0.5 ${readOnly ? "" : "cursor-move touch-none"}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <span className="font-medium text-amber-900">Note</span>
        <button
          type="button"
          aria-label="Remove note"
          onClick={() => store.removeNote(note.id)}
          className="rounded px-1 text-amber-800 hover:bg-amber-200"
        >
          ✕
        </button>
      </div>
      <textarea
        aria-label="Note text"
        value={note.text}
        readOnly={readOnly}
        placeholder="Write a note…"
        onChange={(e) => store.updateNote(note.id, { text: e.target.value })}
        rows={Math.min(12, Math.max(3, note.text.split("\n").length))}
        className="block w-full resize-none select-text rounded-b-md bg-transparent p-2 text-xs text-amber-950 placeholder:text-amber-800/70 focus:outline-none focus:ring-2 focus:ring-amber-400"
      />
    </aside>
  );
}
