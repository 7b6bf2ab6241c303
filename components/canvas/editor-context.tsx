"use client";

import { createContext, useCallback, useContext, useRef, useSyncExternalStore } from "react";
import type { EditorState, EditorStore } from "@/browser/canvas/editor-store";

const EditorContext = createContext<EditorStore | null>(null);

export const EditorProvider = EditorContext.Provider;

export function useEditorStore(): EditorStore {
  const store = useContext(EditorContext);
  if (!store) throw new Error("useEditorStore outside EditorProvider");
  return store;
}

/** Subscribes to a slice of the editor state; `equal` keeps the previous value to skip re-renders. */
export function useEditorState<T>(selector: (s: EditorState) => T, equal: (a: T, b: T) => boolean = Object.is): T {
  const store = useEditorStore();
  const last = useRef<{ value: T } | null>(null);
  const get = useCallback(() => {
    const value = selector(store.getState());
    if (last.current && equal(last.current.value, value)) return last.current.value;
    last.current = { value };
    return value;
  }, [store, selector, equal]);
  return useSyncExternalStore(store.subscribe, get, get);
}
