/**
 * Which of the editor's side panels are open, remembered per browser (one localStorage key), so a
 * builder who closed the test chat does not get it back on every load. A first visit opens none:
 * the canvas gets the room.
 */
export type EditorPanel = "chat" | "tests" | "versions";
export type EditorPanels = Record<EditorPanel, boolean>;

export const PANELS_STORAGE_KEY = "switchyard-editor-panels";
export const NO_PANELS: EditorPanels = { chat: false, tests: false, versions: false };

/** The panels a stored value says were open; anything unreadable (bad JSON, wrong shape) counts as none. */
export function parsePanels(raw: string | null): EditorPanels {
  if (!raw) return NO_PANELS;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return NO_PANELS;
  }
  if (typeof value !== "object" || value === null) return NO_PANELS;
  const v = value as Record<string, unknown>;
  const panels = { chat: v.chat === true, tests: v.tests === true, versions: v.versions === true };
  // The test chat and the Tests tab share the side: never both.
  return panels.chat && panels.tests ? { ...panels, tests: false } : panels;
}

/** Opens or closes one panel; opening the test chat closes the Tests tab and the other way round. */
export function setPanel(panels: EditorPanels, panel: EditorPanel, open: boolean): EditorPanels {
  const next = { ...panels, [panel]: open };
  if (open && panel === "chat") next.tests = false;
  if (open && panel === "tests") next.chat = false;
  return next;
}

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

/** The remembered panels (none when storage cannot be read: private mode, blocked cookies). */
export function readPanels(storage: Storage): EditorPanels {
  try {
    return parsePanels(storage.getItem(PANELS_STORAGE_KEY));
  } catch {
    return NO_PANELS;
  }
}

/** Remembers the panels; a storage that refuses (quota, private mode) only loses the memory. */
export function writePanels(storage: Storage, panels: EditorPanels): void {
  try {
    storage.setItem(PANELS_STORAGE_KEY, JSON.stringify(panels));
  } catch {
    // Nothing to do: the panels still work, they are just not remembered.
  }
}
