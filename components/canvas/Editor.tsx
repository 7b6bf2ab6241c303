"use client";

import { ReactFlowProvider, useReactFlow, useStoreApi } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { ErrorNote, skipLinkClass } from "@/components/ui/controls";
import { createEditorStore } from "@/browser/canvas/editor-store";
import { type EditorPanel, NO_PANELS, readPanels, setPanel, writePanels } from "@/browser/canvas/editor-panels";
import { nodeCatalog } from "@/common/nodes/catalog";
import { agentflowChecks, agentflowChecksWith } from "@/common/agentflow/validate";
import type { FlowChecks } from "@/common/flow/validate";
import type { NodeDefinition } from "@/common/nodes/types";
import { ApiError } from "@/browser/client/api";
import { Canvas } from "./Canvas";
import { EditorProvider, useEditorState, useEditorStore } from "./editor-context";
import { type EditorSlots, EditorSlotsProvider, useEditorSlots } from "./editor-slots";
import { EditorToolbar } from "./EditorToolbar";
import { FlowProblems } from "./FlowProblems";
import { Palette } from "./Palette";
import { PublishDialog } from "./PublishDialog";
import { ToastList, useToasts } from "./Toasts";
import { useChatflow, useUpdateChatflow, type Chatflow } from "./use-chatflow";
import { useEditorActions } from "./use-editor-actions";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { showReadable } from "./use-opening-view";
import { loadInto } from "./load-graph";
import { useGlobalVariableNames } from "./use-variable-references";
import { useVersionViewer } from "./use-version-viewer";
import { VersionsPanel } from "./VersionsPanel";

const noSlots: EditorSlots = {};

/**
 * The chatflow editor: palette, canvas, test chat; loads and saves through react-query. The node
 * definitions come from the server (the page's props), never from the node registry: a chatflow's
 * (`definitions`), or an agentflow's (`agentflowDefinitions`: its steps and what feeds them), whose
 * graph is checked with the agentflow's rules. Parts owned by other features (test chat, widget
 * embed, store uploads) come in through `slots`.
 */
export function ChatflowEditor({
  id,
  definitions,
  agentflowDefinitions = definitions,
  slots = noSlots,
}: {
  id: string;
  definitions: readonly NodeDefinition[];
  agentflowDefinitions?: readonly NodeDefinition[];
  slots?: EditorSlots;
}) {
  const flow = useChatflow(id);
  const agentflow = flow.data?.type === "AGENTFLOW";
  return (
    // Below the studio's bar (StudioNav sets --studio-header: taller when its links wrap on a phone).
    <div className="fixed inset-x-0 bottom-0 top-[var(--studio-header,3.5rem)] z-10 flex flex-col bg-slate-50">
      {flow.isLoading && <p className="m-auto text-sm text-slate-500">Loading chatflow…</p>}
      {flow.error && (
        <div className="m-auto max-w-md">
          <ErrorNote error={flow.error} />
        </div>
      )}
      {flow.data && (
        <EditorSlotsProvider value={slots}>
          <ReactFlowProvider>
            <EditorShell
              flow={flow.data}
              definitions={agentflow ? agentflowDefinitions : definitions}
              checks={agentflow ? agentflowChecks : undefined}
              reload={async () => (await flow.refetch()).data}
            />
          </ReactFlowProvider>
        </EditorSlotsProvider>
      )}
    </div>
  );
}

const selectDirty = (s: { revision: number; savedRevision: number }) => s.revision !== s.savedRevision;

type ShellProps = { flow: Chatflow; reload: () => Promise<Chatflow | undefined> };

function EditorShell({
  definitions,
  checks,
  ...props
}: ShellProps & { definitions: readonly NodeDefinition[]; checks?: FlowChecks }) {
  const [store] = useState(() => createEditorStore(nodeCatalog(definitions), checks));
  const [initial] = useState(() => loadInto(store, props.flow.graph));
  // An agentflow's {{$vars.name}} are checked as they are typed once the server's variables are known.
  const variables = useGlobalVariableNames(checks === agentflowChecks);
  useEffect(() => {
    if (checks === agentflowChecks && variables)
      store.setChecks(agentflowChecksWith({ variables: new Set(variables) }));
  }, [store, checks, variables]);
  return (
    <EditorProvider value={store}>
      <EditorBody {...props} initial={initial} />
    </EditorProvider>
  );
}

function EditorBody({ flow, reload, initial }: ShellProps & { initial: ReturnType<typeof loadInto> }) {
  const store = useEditorStore();
  const slots = useEditorSlots();
  const [toasts, toast, dismiss] = useToasts();
  const actions = useEditorActions(toast);
  const update = useUpdateChatflow(flow.id);
  const [conflict, setConflict] = useState(false);
  // The side panels open as they were left in this browser (none on a first visit: the canvas gets
  // the room). The Tests tab and the test chat share the side: opening one closes the other. On a
  // phone (below 768 px) a panel covers the whole editor: none is reopened there.
  const [panels, setPanels] = useState(() =>
    typeof window === "undefined" || window.matchMedia("(max-width: 767.98px)").matches
      ? NO_PANELS
      : readPanels(localStorage),
  );
  useEffect(() => writePanels(localStorage, panels), [panels]);
  const toggle = useCallback((panel: EditorPanel) => setPanels((p) => setPanel(p, panel, !p[panel])), []);
  const close = useCallback((panel: EditorPanel) => setPanels((p) => setPanel(p, panel, false)), []);
  const { chat: chatOpen, tests: testsOpen, versions: versionsOpen } = panels;
  const [publishOpen, setPublishOpen] = useState(false);
  // On a phone (below 768 px) the palette is a panel over the canvas, opened from the bar.
  const [paletteOpen, setPaletteOpen] = useState(() => typeof window === "undefined" || window.innerWidth >= 768);
  // A node added from the palette over the canvas (a phone) is seen at once: the palette closes.
  const addFromPalette = useCallback(
    (defName: string) => {
      if (window.matchMedia("(max-width: 767.98px)").matches) setPaletteOpen(false);
      actions.addNode(defName);
    },
    [actions],
  );
  const dirty = useEditorState(selectDirty);
  const rf = useReactFlow();
  const showNode = useCallback(
    (id: string) => {
      if (!store.getState().nodes.some((n) => n.id === id)) return false;
      store.select([id]);
      void rf.fitView({ nodes: [{ id }], maxZoom: 1, minZoom: 0.5, duration: 200 });
      return true;
    },
    [store, rf],
  );
  // An old version opens like the draft does: readable, beside the Versions panel that opened it.
  const flowState = useStoreApi();
  const showVersion = useCallback(() => showReadable(rf, flowState.getState), [rf, flowState]);
  const viewer = useVersionViewer({ flow, store, dirty, toast, fit: showVersion });
  const readOnly = viewer.viewing !== null;

  /** Saves the canvas as a new version (with `message`); answers the saved chatflow, or undefined. */
  const save = useCallback(
    async (force = false, message = ""): Promise<Chatflow | undefined> => {
      if (readOnly) return undefined;
      const revision = store.getState().revision;
      store.revealAll(); // a save shows the problems of nodes not touched yet
      try {
        const saved = await update.mutateAsync({
          graph: actions.currentGraph(),
          ...(message ? { versionMessage: message } : {}),
          ...(force ? {} : { expectedVersion: flow.version }),
        });
        store.markSaved(revision);
        setConflict(false);
        toast("success", `Saved as version ${saved.version}.`);
        return saved;
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) setConflict(true);
        else toast("error", `Save failed: ${err instanceof Error ? err.message : String(err)}`);
        return undefined;
      }
    },
    [store, update, actions, flow.version, toast, readOnly],
  );

  const reloadSaved = useCallback(async () => {
    const fresh = await reload();
    if (!fresh) return;
    loadInto(store, fresh.graph);
    setConflict(false);
    requestAnimationFrame(actions.fit);
    toast("info", `Loaded version ${fresh.version}.`);
  }, [reload, store, actions, toast]);

  useEditorShortcuts(actions, () => void save(), !readOnly);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
  useEffect(() => {
    if (initial.error) toast("error", initial.error);
  }, [initial.error, toast]);

  return (
    <>
      {slots.chatPanel && <SkipToChat open={() => setPanels((p) => setPanel(p, "chat", true))} />}
      <EditorToolbar
        name={flow.name}
        version={flow.version}
        publishedVersion={flow.publishedVersion}
        viewing={viewer.viewing}
        versionsOpen={versionsOpen}
        onToggleVersions={() => toggle("versions")}
        saving={update.isPending}
        chatOpen={chatOpen}
        actions={actions}
        onSave={() => void save()}
        onPublish={() => setPublishOpen(true)}
        onToggleChat={() => toggle("chat")}
        testsOpen={testsOpen}
        onToggleTests={slots.testsPanel && (() => toggle("tests"))}
        paletteOpen={paletteOpen}
        onTogglePalette={() => setPaletteOpen((v) => !v)}
        {...(flow.type === "AGENTFLOW" ? { executionsHref: `/executions?agentflowId=${flow.id}` } : {})}
      />
      {conflict && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
          data-testid="conflict"
        >
          <p className="flex-1">
            <strong>Someone saved this chatflow after you opened it.</strong> Reload their version (your unsaved changes
            are lost), or overwrite it with yours.
          </p>
          <button
            type="button"
            className="rounded-md bg-white px-3 py-1 font-medium ring-1 ring-amber-300 hover:bg-amber-100"
            onClick={() => void reloadSaved()}
          >
            Reload saved version
          </button>
          <button
            type="button"
            className="rounded-md bg-amber-600 px-3 py-1 font-medium text-white hover:bg-amber-700"
            onClick={() => void save(true)}
          >
            Overwrite with mine
          </button>
        </div>
      )}
      {readOnly && (
        <div
          role="status"
          className="flex flex-wrap items-center gap-3 border-b border-brand-200 bg-brand-50 px-4 py-2 text-sm text-brand-900"
          data-testid="viewing-version"
        >
          <p className="flex-1">
            <strong>Version {viewer.viewing}, read-only.</strong> The draft (version {flow.version}) is what you edit
            and what the test chat runs.
          </p>
          <button
            type="button"
            className="rounded-md bg-white px-3 py-1 font-medium ring-1 ring-brand-300 hover:bg-brand-100"
            onClick={viewer.backToDraft}
          >
            Back to the draft
          </button>
        </div>
      )}
      <div className="relative flex min-h-0 flex-1">
        <div
          className={`flex shrink-0 max-md:absolute max-md:inset-y-0 max-md:left-0 max-md:z-20 max-md:shadow-xl ${paletteOpen ? "" : "max-md:hidden"}`}
        >
          {!readOnly && <Palette onAdd={addFromPalette} />}
        </div>
        <section className="relative min-w-0 flex-1" aria-label="Canvas">
          {/* While an old version is open: form fields disabled, and no pointer input reaches the nodes (their
              code editors are no form fields); the canvas still pans and zooms. */}
          <fieldset
            disabled={readOnly}
            className={readOnly ? "contents [&_.react-flow__node]:pointer-events-none!" : "contents"}
          >
            <Canvas
              onRefused={(why) => toast("error", `Connection refused: ${why}`)}
              onAdd={actions.addNode}
              commands={actions}
              viewport={initial.viewport}
              readOnly={readOnly}
            />
          </fieldset>
          <FlowProblems />
          <ToastList toasts={toasts} onDismiss={dismiss} />
        </section>
        {chatOpen &&
          slots.chatPanel?.({
            chatflowId: flow.id,
            dirty,
            onClose: () => close("chat"),
            onServerProblems: store.setServerProblems,
            onShowNode: showNode,
          })}
        {testsOpen &&
          slots.testsPanel?.({ chatflowId: flow.id, version: flow.version, dirty, onClose: () => close("tests") })}
        {versionsOpen && (
          <VersionsPanel
            flow={flow}
            viewing={viewer.viewing}
            onView={(n) => void viewer.view(n)}
            onRestored={viewer.restored}
            onExportAll={(versions) =>
              actions.exportFile(flow.name, {
                version: flow.version,
                versions: versions.map((v) => ({
                  version: v.version,
                  createdAt: v.createdAt,
                  author: v.author,
                  message: v.message,
                  graph: v.graph,
                })),
              })
            }
            onClose={() => close("versions")}
          />
        )}
      </div>
      {publishOpen && (
        <PublishDialog
          flow={flow}
          graph={actions.currentGraph}
          dirty={dirty}
          onSaveVersion={(message) => save(false, message)}
          onClose={() => setPublishOpen(false)}
        />
      )}
    </>
  );
}

/** The test chat's message field (ChatPanel's input), where "Skip to test chat" lands. */
const CHAT_INPUT_ID = "chat-question";

/**
 * "Skip to test chat": a skip link among the page's own (StudioShell's #skip-links, so it is one of
 * the first stops of Tab), opening the test chat when it is closed and putting focus in its message field.
 */
function SkipToChat({ open }: { open: () => void }) {
  const [target, setTarget] = useState<HTMLElement | null>(null);
  useEffect(() => setTarget(document.getElementById("skip-links")), []);
  const link = (
    <a
      href={`#${CHAT_INPUT_ID}`}
      className={skipLinkClass}
      onClick={(e) => {
        e.preventDefault();
        open();
        // The panel may mount on this click: focus once React has drawn it.
        const focus = (tries: number) => {
          const input = document.getElementById(CHAT_INPUT_ID);
          if (input) input.focus();
          else if (tries > 0) requestAnimationFrame(() => focus(tries - 1));
        };
        requestAnimationFrame(() => focus(10));
      }}
    >
      Skip to test chat
    </a>
  );
  return target ? createPortal(link, target) : null;
}
