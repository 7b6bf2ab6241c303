import type { GraphNote } from "@/common/schemas/graph";
import type { GraphProblem } from "@/common/schemas/problems";
import type { NodeCatalog } from "@/common/nodes/catalog";
import type { FlowChecks } from "@/common/flow/validate";
import { editorToGraph } from "./graph-convert";
import { checkpoint, emptyHistory, redo, undo, type History } from "./history";
import { graphProblems, groupProblems, hidePristine, NO_PROBLEMS, type Problems } from "./problems";
import type { EditorEdge, EditorNode, FlowNodeData } from "./types";

/**
 * The editor's one store: nodes and edges (React Flow runs controlled from it), undo history, the
 * problems of the current graph (client validation merged with the server's last answer) and a
 * revision counter for the unsaved-changes indicator. Plain TypeScript; React subscribes to it.
 */

interface Snapshot {
  nodes: EditorNode[];
  edges: EditorEdge[];
}

export interface EditorState extends Snapshot {
  /** Canvas notes (e.g. imported Flowise sticky notes): shown and saved, never validated or run. */
  notes: GraphNote[];
  history: History<Snapshot>;
  problems: Problems;
  serverProblems: GraphProblem[];
  /**
   * Nodes added in this session and not touched yet (no field edited, no connection made): their
   * problems stay hidden until touched, saved or run. Client-side only, never saved.
   */
  pristine: ReadonlySet<string>;
  /** Set by a load or an import: the canvas checks the measured nodes for overlap once (and lays them out). */
  layoutCheck: boolean;
  /** Bumped by every change of content (not selection or measured sizes). */
  revision: number;
  savedRevision: number;
}

type Change = { content: boolean };

const VALIDATION_DELAY_MS = 120;

/**
 * A new editor store over the node definitions the server sent (`catalog`), which check its graph
 * with `flowChecks` (the checks of the flow's kind; a chatflow's when unset).
 */
export function createEditorStore(catalog: NodeCatalog, flowChecks?: FlowChecks) {
  let state: EditorState = {
    nodes: [],
    edges: [],
    notes: [],
    history: emptyHistory(),
    problems: NO_PROBLEMS,
    serverProblems: [],
    pristine: new Set(),
    layoutCheck: false,
    revision: 0,
    savedRevision: 0,
  };
  const listeners = new Set<() => void>();
  let checked:
    | {
        data: FlowNodeData[];
        ids: string[];
        edges: EditorEdge[];
        server: GraphProblem[];
        pristine: ReadonlySet<string>;
      }
    | undefined;

  /** Re-validates only when something validation reads changed (not on moves or selection). */
  function revalidate(s: EditorState): Problems {
    const same =
      checked &&
      checked.edges === s.edges &&
      checked.server === s.serverProblems &&
      checked.pristine === s.pristine &&
      checked.data.length === s.nodes.length &&
      s.nodes.every((n, i) => n.data === checked!.data[i] && n.id === checked!.ids[i]);
    if (same) return s.problems;
    checked = {
      data: s.nodes.map((n) => n.data),
      ids: s.nodes.map((n) => n.id),
      edges: s.edges,
      server: s.serverProblems,
      pristine: s.pristine,
    };
    const all = [...graphProblems(editorToGraph(s.nodes, s.edges), catalog.get, flowChecks), ...s.serverProblems];
    const ids = s.nodes.map((n) => n.id);
    const labels = new Map(s.nodes.map((n) => [n.id, n.data.label || catalog.get(n.data.defName)?.label || n.id]));
    return groupProblems(hidePristine(all, s.pristine, ids), labels);
  }

  function emit() {
    for (const l of listeners) l();
  }

  // Validation of a large flow takes tens of milliseconds: run it once typing or dragging pauses,
  // not on every keystroke or frame.
  let timer: ReturnType<typeof setTimeout> | undefined;
  function scheduleValidation() {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const problems = revalidate(state);
      if (problems === state.problems) return;
      state = { ...state, problems };
      emit();
    }, VALIDATION_DELAY_MS);
  }

  function set(next: Partial<EditorState>, change: Change) {
    const s = { ...state, ...next };
    if (change.content) {
      s.revision = state.revision + 1;
      if (next.serverProblems === undefined) s.serverProblems = [];
    }
    state = s;
    emit();
    scheduleValidation();
  }

  const store = {
    /** The node definitions of this editor (palette, forms, connection checks). */
    catalog,
    getState: () => state,
    /** Validates now (tests and callers that need the problems at once). */
    validateNow() {
      clearTimeout(timer);
      state = { ...state, problems: revalidate(state) };
      emit();
    },
    /** Checks the graph with these from now on (an agentflow's, once the server's global variables are known). */
    setChecks(checks: FlowChecks) {
      flowChecks = checks;
      checked = undefined;
      store.validateNow();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Replaces everything (a load from the server or an import); `saved` marks it as the saved state. */
    load(nodes: EditorNode[], edges: EditorEdge[], saved: boolean, notes: GraphNote[] = []) {
      set(
        {
          nodes,
          edges,
          notes,
          pristine: new Set(),
          layoutCheck: true,
          history: saved ? emptyHistory() : checkpoint(state.history, { nodes: state.nodes, edges: state.edges }),
        },
        { content: true },
      );
      if (saved) store.markSaved(state.revision);
    },
    setNodes(nodes: EditorNode[], change: Change) {
      set({ nodes }, change);
    },
    setEdges(edges: EditorEdge[], change: Change) {
      set({ edges }, change);
    },
    /** Adds a canvas note (a sticky note the builder wrote; saved with the next save). */
    addNote(note: GraphNote) {
      set({ notes: [...state.notes, note] }, { content: true });
    },
    /** Changes a canvas note's text or place. */
    updateNote(id: string, change: Partial<Pick<GraphNote, "text" | "position">>) {
      set({ notes: state.notes.map((n) => (n.id === id ? { ...n, ...change } : n)) }, { content: true });
    },
    /** Removes a canvas note (saved with the next save). */
    removeNote(id: string) {
      set({ notes: state.notes.filter((n) => n.id !== id) }, { content: true });
    },
    /** Remembers the current graph as an undo step (call before a change). */
    checkpoint(key?: string) {
      state = { ...state, history: checkpoint(state.history, { nodes: state.nodes, edges: state.edges }, key) };
    },
    /** A change recorded as one undo step. */
    commit(fn: (s: Snapshot) => Snapshot, key?: string) {
      store.checkpoint(key);
      set(fn({ nodes: state.nodes, edges: state.edges }), { content: true });
    },
    /** Adds a node the user has not touched yet (its problems wait, see `pristine`). */
    addNode(node: EditorNode) {
      store.checkpoint();
      set(
        {
          nodes: [...state.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node],
          pristine: new Set([...state.pristine, node.id]),
        },
        { content: true },
      );
    },
    /** The user edited or connected these nodes: their problems show from now on. */
    touch(ids: string[]) {
      if (!ids.some((id) => state.pristine.has(id))) return;
      set({ pristine: new Set([...state.pristine].filter((id) => !ids.includes(id))) }, { content: false });
    },
    /** A save or a run: every node's problems show. */
    revealAll() {
      if (state.pristine.size > 0) set({ pristine: new Set() }, { content: false });
    },
    /** The canvas checked the loaded nodes for overlap. */
    layoutChecked() {
      state = { ...state, layoutCheck: false };
    },
    /** Selects exactly these nodes (the problems panel). */
    select(ids: string[]) {
      const sel = new Set(ids);
      set(
        {
          nodes: state.nodes.map((n) => (!!n.selected === sel.has(n.id) ? n : { ...n, selected: sel.has(n.id) })),
          edges: state.edges.map((e) => (e.selected ? { ...e, selected: false } : e)),
        },
        { content: false },
      );
    },
    updateParam(nodeId: string, name: string, value: unknown) {
      store.touch([nodeId]);
      store.commit(
        (s) => ({
          ...s,
          nodes: s.nodes.map((n) =>
            n.id === nodeId ? { ...n, data: { ...n.data, inputs: { ...n.data.inputs, [name]: value } } } : n,
          ),
        }),
        `param:${nodeId}:${name}`,
      );
    },
    undo() {
      const r = undo(state.history, { nodes: state.nodes, edges: state.edges });
      if (r) set({ ...r.state, history: r.history }, { content: true });
    },
    redo() {
      const r = redo(state.history, { nodes: state.nodes, edges: state.edges });
      if (r) set({ ...r.state, history: r.history }, { content: true });
    },
    markSaved(revision: number) {
      set({ savedRevision: revision }, { content: false });
    },
    /** The server's problems from a run: shown for every node (a run reveals pristine nodes too). */
    setServerProblems(serverProblems: GraphProblem[]) {
      set({ serverProblems, pristine: new Set() }, { content: false });
    },
  };
  return store;
}

export type EditorStore = ReturnType<typeof createEditorStore>;
