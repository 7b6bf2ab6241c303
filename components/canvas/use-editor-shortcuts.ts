"use client";

import { useEffect, useRef } from "react";
import type { EditorActions } from "./use-editor-actions";

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

function hasTextSelection(): boolean {
  const sel = window.getSelection();
  return !!sel && !sel.isCollapsed && sel.toString().trim() !== "";
}

/**
 * Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo, Ctrl/⌘+D duplicate, Ctrl/⌘+C copy and Ctrl/⌘+V paste
 * nodes, Ctrl/⌘+S save. Delete is React Flow's.
 */
export function useEditorShortcuts(actions: EditorActions, save: () => void, enabled = true) {
  const latest = useRef({ actions, save, enabled });
  latest.current = { actions, save, enabled };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Off while an old version is open read-only.
      if (!(e.ctrlKey || e.metaKey) || !latest.current.enabled) return;
      const key = e.key.toLowerCase();
      const { actions: a, save: s } = latest.current;
      if (key === "s") {
        e.preventDefault();
        s();
        return;
      }
      if (isTyping(e.target)) return;
      if (key === "z" && !e.shiftKey) {
        e.preventDefault();
        a.undo();
      } else if ((key === "z" && e.shiftKey) || key === "y") {
        e.preventDefault();
        a.redo();
      } else if (key === "d") {
        e.preventDefault();
        a.duplicate();
      } else if (key === "c" && !e.shiftKey && !e.altKey && !hasTextSelection()) {
        // Text selected on the page (a node's description, a toast) is copied as text, not nodes.
        a.copy({ quiet: true });
      } else if (key === "v" && !e.shiftKey && !e.altKey && a.canPaste()) {
        e.preventDefault();
        a.paste();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
