import { describe, expect, it } from "vitest";
import { editorToGraph, graphToEditor } from "@/browser/canvas/graph-convert";
import { AppError } from "@/common/errors";
import { migrateSavedNode } from "../nodes/migrate";
import { getDefinition } from "../nodes/registry";
import type { NodeDefinition } from "@/common/nodes/types";
import type { GraphNode } from "@/common/schemas/graph";
import { edge, node, testContext } from "./__fixtures__/graphs";
import { buildFlow } from "./build";
import { validateGraph as validateWith, type GraphProblem } from "@/common/flow/validate";
import { validateGraph } from "./validate-saved";

const graph = (version?: number) => ({
  nodes: [
    { ...node("model", "chatOpenAICompatible", { model: "m" }), ...(version ? { version } : {}) },
    node("prompt", "promptTemplate", { template: "About {topic}" }),
    node("chain", "llmChain"),
  ],
  edges: [edge("model", "chatModel", "chain", "model"), edge("prompt", "prompt", "chain", "prompt")],
});

function refusal(run: () => unknown): GraphProblem[] {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("invalid_graph");
    return (e as AppError).details as GraphProblem[];
  }
  throw new Error("expected the graph to be refused");
}

/** The promptTemplate definition as if it had moved on to version 3 (renamed `template` to `text` in 3). */
const promptV3: NodeDefinition = { ...getDefinition("promptTemplate")!, version: 3 };
const lookupV3 = (type: string) => (type === "promptTemplate" ? promptV3 : getDefinition(type));
const renameTemplate = (n: GraphNode, def: NodeDefinition): GraphNode | string =>
  (n.version ?? 1) < 2
    ? "version 1 is too old."
    : { ...n, version: def.version, data: { ...n.data, inputs: { ...n.data.inputs, template: n.data.inputs.text } } };

describe("node versions", () => {
  it("counts a node saved without a version (every flow saved so far) as version 1", () => {
    expect(validateGraph(graph()).nodes[0].version).toBeUndefined();
    expect(validateGraph(graph(1)).nodes[0].version).toBe(1);
  });

  it("refuses a node saved with a version newer than the server knows, naming the node", async () => {
    const problems = refusal(() => validateGraph(graph(2)));
    expect(problems).toEqual([
      {
        code: "node_version_newer",
        nodeId: "model",
        params: {
          label: "OpenAI-compatible Chat Model",
          typeLabel: "OpenAI-compatible Chat Model",
          saved: 2,
          known: 1,
        },
        message: expect.stringMatching(
          /"OpenAI-compatible Chat Model" \(model\) was saved with version 2 .* up to 1 only/,
        ),
      },
    ]);
    await expect(buildFlow(graph(2), testContext())).rejects.toMatchObject({
      code: "invalid_graph",
      details: problems,
    });
  });

  it("migrates an older node through its definition's hook, or refuses it naming the node", () => {
    const v2 = {
      ...graph(),
      nodes: graph().nodes.map((n) =>
        n.id === "prompt" ? { ...n, version: 2, data: { inputs: { text: "Hi {x}" } } } : n,
      ),
    };
    const migrated = validateWith(v2, lookupV3, renameTemplate).nodes.find((n) => n.id === "prompt")!;
    expect(migrated).toMatchObject({ version: 3, data: { inputs: { text: "Hi {x}", template: "Hi {x}" } } });
    const v1 = { ...v2, nodes: v2.nodes.map((n) => (n.id === "prompt" ? { ...n, version: 1 } : n)) };
    expect(refusal(() => validateWith(v1, lookupV3, renameTemplate))).toEqual([
      {
        code: "node_version_refused",
        nodeId: "prompt",
        params: expect.objectContaining({ saved: 1, known: 3, reason: "version 1 is too old." }),
        message: expect.stringMatching(
          /"Prompt Template" \(prompt\) .* version 1 .* to version 3: version 1 is too old/,
        ),
      },
    ]);
    // Without a migrator (the canvas), older nodes are checked as they are: the server migrates them.
    expect(refusal(() => validateWith(v1, lookupV3)).map((p) => p.input)).toEqual(["template"]);
  });

  it("migrates by the registered node's hook (identity by default), stamping the current version", () => {
    const saved = node("p", "promptTemplate", { template: "About {topic}" });
    expect(migrateSavedNode(saved, promptV3)).toEqual({ ...saved, version: 3 });
    expect(migrateSavedNode({ ...saved, type: "gone" }, { ...promptV3, name: "gone" })).toMatch(
      /no runtime on this server/,
    );
  });

  it("keeps the version through the canvas and back", () => {
    const saved = graph(1);
    const { nodes, edges } = graphToEditor(saved);
    expect(nodes[0].data.version).toBe(1);
    expect(editorToGraph(nodes, edges).nodes).toEqual(saved.nodes);
  });
});
