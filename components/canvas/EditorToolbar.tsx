"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/controls";
import { useEditorState } from "./editor-context";
import { Icon, type IconName } from "./icons";
import type { EditorActions } from "./use-editor-actions";

type Props = {
  name: string;
  version: number;
  /** The version the API runs; null: never published (the latest runs). */
  publishedVersion: number | null;
  /** An old version open read-only on the canvas. */
  viewing: number | null;
  versionsOpen: boolean;
  onToggleVersions: () => void;
  saving: boolean;
  chatOpen: boolean;
  /** Whether the Tests tab is open; no Tests button without a handler. */
  testsOpen?: boolean;
  actions: EditorActions;
  onSave: () => void;
  onPublish: () => void;
  onToggleChat: () => void;
  paletteOpen: boolean;
  onTogglePalette: () => void;
  onToggleTests?: () => void;
  /** An agentflow's runs (the Executions view); no link without it. */
  executionsHref?: string;
};

const selectDirty = (s: { revision: number; savedRevision: number }) => s.revision !== s.savedRevision;
const selectCanUndo = (s: { history: { past: unknown[] } }) => s.history.past.length > 0;
const selectCanRedo = (s: { history: { future: unknown[] } }) => s.history.future.length > 0;
const selectCount = (s: { problems: { count: number } }) => s.problems.count;

function ToolButton({
  icon,
  label,
  shortcut,
  onClick,
  disabled,
}: {
  icon: IconName;
  label: string;
  shortcut?: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={shortcut ? `${label} (${shortcut})` : label}
      onClick={onClick}
      disabled={disabled}
      className="grid h-8 w-8 place-items-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:opacity-35 disabled:hover:bg-transparent"
    >
      <Icon name={icon} />
    </button>
  );
}

/**
 * Opens or closes a side panel; below 1280 px only its icon shows (the name stays for assistive
 * tech and the tooltip), so Publish and Save keep their place at 1024 px.
 */
function PanelToggle({
  icon,
  label,
  open,
  onToggle,
}: {
  icon: IconName;
  label: string;
  open?: boolean;
  onToggle: () => void;
}) {
  return (
    <Button
      variant="secondary"
      onClick={onToggle}
      aria-pressed={open}
      aria-label={label}
      title={label}
      className="max-xl:px-2"
    >
      <Icon name={icon} />
      <span className="max-xl:sr-only">{label}</span>
    </Button>
  );
}

/** Draft vs published at a glance: "Draft v5 · Published v3", or the version on view. */
function VersionBadge({
  version,
  publishedVersion,
  viewing,
}: {
  version: number;
  publishedVersion: number | null;
  viewing: number | null;
}) {
  if (viewing !== null)
    return (
      <span className="rounded bg-brand-100 px-1 font-medium text-brand-800" data-testid="version-badge">
        Viewing v{viewing} (read-only)
      </span>
    );
  const live = publishedVersion === version;
  return (
    <span data-testid="version-badge" className="flex items-center gap-1">
      <span
        className={`rounded px-1 font-medium ${live ? "bg-emerald-100 text-emerald-800" : "bg-amber-100 text-amber-800"}`}
      >
        {live ? `v${version} published` : `Draft v${version}`}
      </span>
      {!live && (
        <span className="text-slate-500">
          {publishedVersion === null ? "· not published" : `· published v${publishedVersion}`}
        </span>
      )}
    </span>
  );
}

type Command = { icon: IconName; label: string; shortcut?: string; run: () => void; disabled?: boolean; group: number };

/**
 * The commands that do not fit a phone's bar (below 768 px): a menu button with the same commands
 * as menu items (arrow keys move, Escape closes and gives focus back to the button).
 */
function MoreMenu({ commands }: { commands: Command[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLButtonElement>("[role=menuitem]:not(:disabled)")?.focus();
    const away = (e: PointerEvent) => {
      if (!menu.current?.contains(e.target as Node) && !button.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, [open]);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="relative md:hidden">
      <button
        ref={button}
        type="button"
        aria-label="More commands"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
        className="grid h-8 w-8 place-items-center rounded-md text-slate-600 hover:bg-slate-100"
      >
        <Icon name="more" className="h-5 w-5" />
      </button>
      {open && (
        <div
          ref={menu}
          role="menu"
          aria-label="More commands"
          tabIndex={-1}
          className="absolute right-0 top-9 z-40 w-56 rounded-lg bg-white py-1 shadow-xl ring-1 ring-slate-200"
          onKeyDown={(e) => {
            const items = [
              ...(menu.current?.querySelectorAll<HTMLButtonElement>("[role=menuitem]:not(:disabled)") ?? []),
            ];
            const at = items.indexOf(document.activeElement as HTMLButtonElement);
            if (e.key === "Escape" || e.key === "Tab") {
              e.preventDefault();
              e.stopPropagation();
              close();
            } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              const next = (at + (e.key === "ArrowDown" ? 1 : -1) + items.length) % items.length;
              items[next]?.focus();
            }
          }}
        >
          {commands.map((c, i) => (
            <div key={c.label}>
              {i > 0 && commands[i - 1].group !== c.group && <hr className="my-1 border-slate-200" />}
              <button
                type="button"
                role="menuitem"
                disabled={c.disabled}
                onClick={() => {
                  close();
                  c.run();
                }}
                className="flex w-full items-center gap-2 px-3 py-1.5 text-left text-sm text-slate-700 hover:bg-slate-100 disabled:opacity-40"
              >
                <Icon name={c.icon} />
                <span className="flex-1">{c.label}</span>
                {c.shortcut && <span className="text-xs text-slate-500">{c.shortcut}</span>}
              </button>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** Name, save state and every command of the editor; below 768 px the icon commands move into a menu. */
export function EditorToolbar({
  name,
  version,
  publishedVersion,
  viewing,
  versionsOpen,
  onToggleVersions,
  saving,
  chatOpen,
  testsOpen,
  actions,
  onSave,
  onPublish,
  onToggleChat,
  paletteOpen,
  onTogglePalette,
  onToggleTests,
  executionsHref,
}: Props) {
  const dirty = useEditorState(selectDirty);
  const canUndo = useEditorState(selectCanUndo);
  const canRedo = useEditorState(selectCanRedo);
  const problems = useEditorState(selectCount);
  const fileInput = useRef<HTMLInputElement>(null);
  const commands: Command[] = [
    { icon: "undo", label: "Undo", shortcut: "Ctrl+Z", run: () => actions.undo(), disabled: !canUndo, group: 0 },
    { icon: "redo", label: "Redo", shortcut: "Ctrl+Shift+Z", run: () => actions.redo(), disabled: !canRedo, group: 0 },
    { icon: "duplicate", label: "Duplicate selection", shortcut: "Ctrl+D", run: actions.duplicate, group: 1 },
    { icon: "trash", label: "Delete selection", shortcut: "Delete", run: actions.deleteSelected, group: 1 },
    // A sticky note in view (the canvas's right-click menu puts one where it was clicked).
    { icon: "note", label: "Add note", run: () => actions.addNote(), group: 1 },
    { icon: "layout", label: "Auto-layout", run: actions.layout, group: 2 },
    { icon: "fit", label: "Fit view", run: actions.fit, group: 2 },
    { icon: "upload", label: "Import JSON", run: () => fileInput.current?.click(), group: 3 },
    {
      icon: "download",
      label: "Export JSON",
      run: () => actions.exportFile(name, dirty ? {} : { version: viewing ?? version }),
      group: 3,
    },
  ];
  return (
    <div
      // On a phone the commands wrap to a second row, so the flow's name keeps the first row's width.
      className="flex min-h-12 shrink-0 flex-wrap items-center gap-1 border-b border-slate-200 bg-white px-2 py-1 max-sm:gap-y-1.5 sm:h-12 sm:flex-nowrap sm:gap-2 sm:px-3 sm:py-0"
      role="toolbar"
      aria-label="Editor"
    >
      <Link
        href="/chatflows"
        aria-label="Back to chatflows"
        className="grid h-8 w-8 shrink-0 place-items-center rounded-md text-slate-600 hover:bg-slate-100"
        onClick={(e) => {
          if (dirty && !confirm("You have unsaved changes. Leave without saving?")) e.preventDefault();
        }}
      >
        <Icon name="back" />
      </Link>
      <button
        type="button"
        aria-label="Nodes"
        aria-pressed={paletteOpen}
        onClick={onTogglePalette}
        className={`grid h-8 w-8 shrink-0 place-items-center rounded-md md:hidden ${paletteOpen ? "bg-brand-50 text-brand-700" : "text-slate-600 hover:bg-slate-100"}`}
      >
        <Icon name="nodes" />
      </button>
      <div className="min-w-0 flex-1 max-sm:basis-[calc(100%-4.5rem)] md:flex-none">
        <h1 className="truncate text-sm font-semibold text-slate-900" title={name}>
          {name}
        </h1>
        <p
          className="flex items-center gap-2 overflow-hidden whitespace-nowrap text-[11px] text-slate-500"
          data-testid="save-state"
        >
          <VersionBadge version={version} publishedVersion={publishedVersion} viewing={viewing} />
          {saving ? (
            <span>Saving…</span>
          ) : dirty ? (
            <span className="flex items-center gap-1 font-medium text-amber-700">
              <span className="h-1.5 w-1.5 rounded-full bg-amber-500" />
              Unsaved changes
            </span>
          ) : (
            <span className="text-emerald-700">
              All <span className="max-sm:hidden">changes </span>saved
            </span>
          )}
          {problems > 0 && (
            <span className="flex items-center gap-1 text-red-700" data-testid="problem-count">
              <Icon name="warning" className="h-3 w-3" />
              {problems} {problems === 1 ? "problem" : "problems"}
            </span>
          )}
        </p>
      </div>
      <div className="ml-auto hidden items-center gap-0.5 md:flex">
        {commands.map((c, i) => (
          <span key={c.label} className="contents">
            {i > 0 && commands[i - 1].group !== c.group && <span className="mx-1 h-5 w-px bg-slate-200" />}
            <ToolButton icon={c.icon} label={c.label} shortcut={c.shortcut} onClick={c.run} disabled={c.disabled} />
          </span>
        ))}
      </div>
      <input
        ref={fileInput}
        type="file"
        accept=".json,application/json"
        className="hidden"
        data-testid="import-file"
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = "";
          if (f) void actions.importFile(f);
        }}
      />
      <div className="flex shrink-0 items-center gap-1 max-sm:ml-auto sm:gap-2 md:pl-2">
        <PanelToggle icon="history" label="Versions" open={versionsOpen} onToggle={onToggleVersions} />
        <PanelToggle icon="chat" label="Test chat" open={chatOpen} onToggle={onToggleChat} />
        {onToggleTests && <PanelToggle icon="tests" label="Tests" open={testsOpen} onToggle={onToggleTests} />}
        {executionsHref && (
          <Link
            href={executionsHref}
            aria-label="Executions"
            title="Executions"
            className="inline-flex items-center gap-1.5 rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 max-xl:px-2"
          >
            <Icon name="runs" />
            <span className="max-xl:sr-only">Executions</span>
          </Link>
        )}
        <Button variant="secondary" onClick={onPublish} aria-label="Publish" className="max-sm:px-2">
          <Icon name="publish" />
          <span className="max-sm:sr-only">Publish</span>
        </Button>
        <Button onClick={onSave} disabled={saving || viewing !== null} title="Save (Ctrl+S)" className="max-sm:px-2.5">
          Save
        </Button>
        <MoreMenu commands={commands} />
      </div>
    </div>
  );
}
