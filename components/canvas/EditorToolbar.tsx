"use client";

import Link from "next/link";
import { useRef } from "react";
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
  onToggleTests?: () => void;
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

/** Name, save state and every command of the editor. */
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
  onToggleTests,
}: Props) {
  const dirty = useEditorState(selectDirty);
  const canUndo = useEditorState(selectCanUndo);
  const canRedo = useEditorState(selectCanRedo);
  const problems = useEditorState(selectCount);
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <div
      className="flex h-12 shrink-0 items-center gap-2 border-b border-slate-200 bg-white px-3"
      role="toolbar"
      aria-label="Editor"
    >
      <Link
        href="/chatflows"
        aria-label="Back to chatflows"
        className="grid h-8 w-8 place-items-center rounded-md text-slate-500 hover:bg-slate-100"
        onClick={(e) => {
          if (dirty && !confirm("You have unsaved changes. Leave without saving?")) e.preventDefault();
        }}
      >
        <Icon name="back" />
      </Link>
      <div className="min-w-0">
        <h1 className="truncate text-sm font-semibold text-slate-900" title={name}>
          {name}
        </h1>
        <p className="flex items-center gap-2 text-[11px] text-slate-500" data-testid="save-state">
          <VersionBadge version={version} publishedVersion={publishedVersion} viewing={viewing} />
          {saving ? (
            <span>Saving…</span>
          ) : dirty ? (
            <span className="flex items-center gap-1 font-medium text-amber-700">
              <span className="h-1.5 w-1.5 rounded-full bg-amber-500" />
              Unsaved changes
            </span>
          ) : (
            <span className="text-emerald-700">All changes saved</span>
          )}
          {problems > 0 && (
            <span className="flex items-center gap-1 text-red-700" data-testid="problem-count">
              <Icon name="warning" className="h-3 w-3" />
              {problems} {problems === 1 ? "problem" : "problems"}
            </span>
          )}
        </p>
      </div>
      <div className="ml-auto flex items-center gap-0.5">
        <ToolButton icon="undo" label="Undo" shortcut="Ctrl+Z" onClick={() => actions.undo()} disabled={!canUndo} />
        <ToolButton
          icon="redo"
          label="Redo"
          shortcut="Ctrl+Shift+Z"
          onClick={() => actions.redo()}
          disabled={!canRedo}
        />
        <span className="mx-1 h-5 w-px bg-slate-200" />
        <ToolButton icon="duplicate" label="Duplicate selection" shortcut="Ctrl+D" onClick={actions.duplicate} />
        <ToolButton icon="trash" label="Delete selection" shortcut="Delete" onClick={actions.deleteSelected} />
        <span className="mx-1 h-5 w-px bg-slate-200" />
        <ToolButton icon="layout" label="Auto-layout" onClick={actions.layout} />
        <ToolButton icon="fit" label="Fit view" onClick={actions.fit} />
        <span className="mx-1 h-5 w-px bg-slate-200" />
        <ToolButton icon="upload" label="Import JSON" onClick={() => fileInput.current?.click()} />
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
        <ToolButton
          icon="download"
          label="Export JSON"
          onClick={() => actions.exportFile(name, dirty ? {} : { version: viewing ?? version })}
        />
      </div>
      <div className="flex items-center gap-2 pl-2">
        <Button variant="secondary" onClick={onToggleVersions} aria-pressed={versionsOpen}>
          <Icon name="history" />
          Versions
        </Button>
        <Button variant="secondary" onClick={onToggleChat} aria-pressed={chatOpen}>
          <Icon name="chat" />
          Test chat
        </Button>
        {onToggleTests && (
          <Button variant="secondary" onClick={onToggleTests} aria-pressed={testsOpen}>
            <Icon name="tests" />
            Tests
          </Button>
        )}
        <Button variant="secondary" onClick={onPublish}>
          <Icon name="publish" />
          Publish
        </Button>
        <Button onClick={onSave} disabled={saving || viewing !== null} title="Save (Ctrl+S)">
          Save
        </Button>
      </div>
    </div>
  );
}
