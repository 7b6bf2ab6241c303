import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { handleId } from "@/common/nodes/handles";
import { nodeCatalog } from "@/common/nodes/catalog";
import { getDefinition, nodeDefinitions } from "@/lib/nodes/registry";
import { connectionProblem } from "./connection";
import { copySelection, pasteNodes } from "./clipboard";
import { createEditorStore } from "./editor-store";
import { editorToGraph, graphToEditor } from "./graph-convert";
import { exportFileText, parseImportFile } from "./import-export";
import { autoLayout } from "./layout";
import { toGraphProblem, type GraphProblem } from "@/common/schemas/problems";
import { groupProblems } from "./problems";
import type { EditorEdge, EditorNode } from "./types";

const n = (id: string, defName: string, x = 0): EditorNode => ({
  id,
  type: "flowNode",
  position: { x, y: 0 },
  data: { defName, inputs: {} },
});
const e = (s: string, out: string, t: string, inp: string): EditorEdge => ({
  id: `${s}-${t}-${inp}`,
  source: s,
  sourceHandle: handleId(s, out, "out"),
  target: t,
  targetHandle: handleId(t, inp, "in"),
});
const conn = (s: string, out: string, t: string, inp: string) => ({
  source: s,
  sourceHandle: handleId(s, out, "out"),
  target: t,
  targetHandle: handleId(t, inp, "in"),
});

const nodes = [
  n("model", "chatOpenAICompatible"),
  n("mem", "bufferMemory"),
  n("api", "openApiChain"),
  n("tool", "chainTool"),
  n("agent", "toolAgent"),
];

describe("connectionProblem", () => {
  it("accepts fitting types and explains refused ones", () => {
    expect(connectionProblem(conn("model", "chatModel", "agent", "model"), nodes, [], getDefinition)).toBeNull();
    expect(connectionProblem(conn("mem", "memory", "agent", "model"), nodes, [], getDefinition)).toMatch(
      /Chat model accepts BaseChatModel, but Buffer Memory provides BaseMemory/,
    );
  });
  it("lets a list input take many edges and a single input one", () => {
    const edges = [e("tool", "tool", "agent", "tools"), e("model", "chatModel", "agent", "model")];
    const tools2 = [...nodes, n("tool2", "chainTool")];
    expect(connectionProblem(conn("tool2", "tool", "agent", "tools"), tools2, edges, getDefinition)).toBeNull();
    const model2 = [...nodes, n("model2", "chatOpenAICompatible")];
    expect(connectionProblem(conn("model2", "chatModel", "agent", "model"), model2, edges, getDefinition)).toMatch(
      /takes one connection/,
    );
  });
  it("refuses a cycle and a self-connection", () => {
    // An agent is a chain, so a Chain Tool could wrap the agent that uses it: types fit, but it loops.
    const edges = [e("tool", "tool", "agent", "tools")];
    expect(connectionProblem(conn("agent", "agent", "tool", "chain"), nodes, edges, getDefinition)).toMatch(/cycle/);
    expect(connectionProblem(conn("api", "chain", "api", "memory"), nodes, edges, getDefinition)).toMatch(/itself/);
  });
});

describe("editor store", () => {
  it("undoes and redoes a deletion as one step and tracks unsaved changes", () => {
    const store = createEditorStore(nodeCatalog(nodeDefinitions));
    store.load(nodes, [], true);
    expect(store.getState().revision).toBe(store.getState().savedRevision);
    store.commit((s) => ({ ...s, nodes: s.nodes.filter((x) => x.id !== "mem") }));
    expect(store.getState().nodes).toHaveLength(4);
    expect(store.getState().revision).not.toBe(store.getState().savedRevision);
    store.undo();
    expect(store.getState().nodes.map((x) => x.id)).toContain("mem");
    store.redo();
    expect(store.getState().nodes).toHaveLength(4);
  });
  it("coalesces typing into one field into one undo step", () => {
    const store = createEditorStore(nodeCatalog(nodeDefinitions));
    store.load(nodes, [], true);
    for (const v of ["p", "pr", "pro"]) store.updateParam("tool", "name", v);
    store.undo();
    expect(store.getState().nodes.find((x) => x.id === "tool")!.data.inputs.name).toBeUndefined();
  });
  it("shows the server's graph problems on nodes", () => {
    const store = createEditorStore(nodeCatalog(nodeDefinitions));
    store.load(nodes, [], true);
    // As the prediction API lists it in error.details: the problem's data with its sentence.
    const detail = {
      code: "connection_required",
      nodeId: "agent",
      input: "tools",
      params: { label: "Tool Agent", inputLabel: "Tools", accepts: ["Tool"] },
      message: 'Node "Tool Agent" (agent): input "Tools" needs a connection (Tool).',
    };
    store.setServerProblems([toGraphProblem(detail)!]);
    store.validateNow();
    expect(
      store
        .getState()
        .problems.byNode.get("agent")
        ?.map((p) => p.message),
    ).toContain('Input "Tools" needs a connection (Tool).');
  });
});

describe("import / export", () => {
  it("round-trips a graph through the export file", () => {
    const graph = editorToGraph(nodes, [e("model", "chatModel", "agent", "model")]);
    const back = parseImportFile(exportFileText("x", graph), getDefinition);
    expect(back).toEqual({ ok: true, graph, name: "x" });
    expect(editorToGraph(graphToEditor(graph).nodes, graphToEditor(graph).edges)).toEqual(graph);
  });
  it("names what is wrong with a bad file", () => {
    expect(parseImportFile("{nope", getDefinition)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not JSON/),
    });
    expect(parseImportFile('{"nodes":[{"id":"a b"}],"edges":[]}', getDefinition)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not a chatflow graph/),
    });
    const unknownType = {
      nodes: [{ id: "a", type: "nope", position: { x: 0, y: 0 }, data: { inputs: {} } }],
      edges: [],
    };
    expect(parseImportFile(JSON.stringify(unknownType), getDefinition)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/nope/),
    });
  });
  it("keeps canvas notes through the editor, the save and the export file; removing one is a change", () => {
    const notes = [{ id: "stickyNote_0", position: { x: 10, y: 20 }, text: "Rebuild the custom tool here" }];
    const graph = { ...editorToGraph(nodes, []), notes };
    const editor = graphToEditor(graph);
    expect(editor.notes).toEqual(notes);
    const store = createEditorStore(nodeCatalog(nodeDefinitions));
    store.load(editor.nodes, editor.edges, true, editor.notes);
    expect(editorToGraph(store.getState().nodes, store.getState().edges, undefined, store.getState().notes)).toEqual(
      graph,
    );
    expect(parseImportFile(exportFileText("x", graph), getDefinition)).toMatchObject({ ok: true, graph });
    // An export with its version and all versions: the file names them, and imports as the current graph.
    const old = { version: 1, createdAt: "2026-01-01T00:00:00.000Z", author: "Ada", message: "first", graph: {} };
    const withVersions = exportFileText("x", graph, { version: 2, versions: [old] });
    expect(JSON.parse(withVersions)).toMatchObject({ version: 2, versions: [old], graph });
    expect(parseImportFile(withVersions, getDefinition)).toMatchObject({ ok: true, graph });
    const before = store.getState().revision;
    store.removeNote("stickyNote_0");
    expect(store.getState().notes).toEqual([]);
    expect(store.getState().revision).toBe(before + 1);
  });
  it("sends a Flowise file to the Flowise import instead of failing on its node types", () => {
    const flowise = readFileSync("../shared/fixtures/flowise/conversation.json", "utf8");
    expect(parseImportFile(flowise, getDefinition)).toMatchObject({
      ok: false,
      message: expect.stringContaining("Import from Flowise"),
    });
    expect(parseImportFile(JSON.stringify({ name: "x", flowData: "{}" }), getDefinition)).toMatchObject({ ok: false });
  });
  it("reads the example product-search flow", () => {
    const text = readFileSync("flows/product-search-agent.json", "utf8");
    expect(parseImportFile(text, getDefinition).ok).toBe(true);
  });
});

it("duplicates the selection with its inner edges and fresh ids", () => {
  const sel = nodes.map((x) => (x.id === "model" || x.id === "agent" ? { ...x, selected: true } : x));
  const links = [e("model", "chatModel", "agent", "model")];
  const out = pasteNodes(copySelection(sel, links)!, sel, links, { x: 40, y: 40 }, () => true);
  expect(out.nodes).toHaveLength(7);
  const copy = out.edges.at(-1)!;
  expect(copy.source).toBe("chatOpenAICompatible_0");
  expect(copy.targetHandle).toBe(handleId("toolAgent_0", "model", "in"));
});

it("lays a chain out left to right", () => {
  const laid = autoLayout(nodes, [
    e("model", "chatModel", "api", "model"),
    e("api", "chain", "tool", "chain"),
    e("tool", "tool", "agent", "tools"),
  ]);
  const x = (id: string) => laid.find((v) => v.id === id)!.position.x;
  expect(x("model")).toBeLessThan(x("api"));
  expect(x("api")).toBeLessThan(x("tool"));
  expect(x("tool")).toBeLessThan(x("agent"));
});

describe("groupProblems", () => {
  it("shows each problem once per node with its node and field sentences, flow problems apart", () => {
    const required: GraphProblem = {
      code: "param_required",
      nodeId: "prompt",
      input: "template",
      params: { label: "Prompt Template", inputLabel: "Template" },
    };
    const grouped = groupProblems([required, required, { code: "flow_empty", params: {} }]);
    expect(grouped.byNode.get("prompt")).toEqual([
      { input: "template", message: 'Input "Template" is required.', fieldMessage: "Required." },
    ]);
    expect(grouped.panel.map((p) => [p.scope, p.text])).toEqual([
      ["flow", "The flow is empty: add a chain or an agent."],
      ["node", 'Node "Prompt Template" (prompt): input "Template" is required.'],
    ]);
    expect(grouped.count).toBe(2);
  });
});
