/**
 * Undo/redo of immutable snapshots. A `key` coalesces a run of checkpoints for the same edit
 * (typing into one field is one undo step, not one per key press).
 */
export interface History<S> {
  past: S[];
  future: S[];
  lastKey?: string;
}

const LIMIT = 100;

export function emptyHistory<S>(): History<S> {
  return { past: [], future: [] };
}

/** Records `present` as the state to return to; skipped when `key` repeats the previous checkpoint. */
export function checkpoint<S>(h: History<S>, present: S, key?: string): History<S> {
  if (key && key === h.lastKey) return h;
  return { past: [...h.past.slice(-(LIMIT - 1)), present], future: [], lastKey: key };
}

export function undo<S>(h: History<S>, present: S): { history: History<S>; state: S } | undefined {
  const prev = h.past.at(-1);
  if (prev === undefined) return undefined;
  return { history: { past: h.past.slice(0, -1), future: [present, ...h.future] }, state: prev };
}

export function redo<S>(h: History<S>, present: S): { history: History<S>; state: S } | undefined {
  const next = h.future[0];
  if (next === undefined) return undefined;
  return { history: { past: [...h.past, present], future: h.future.slice(1) }, state: next };
}
