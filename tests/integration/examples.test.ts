import { describe, expect, it } from "vitest";
import { validateGraph } from "../../lib/flow";
import { validateAgentflowGraph } from "../../lib/agentflow/build";
import { loadExampleFlowsOnce, readExampleFlows } from "../../lib/services/examples";
import { getDb } from "../../lib/db/client";

describe("example flows", () => {
  it("are all valid graphs (specs inlined from flows/specs)", () => {
    const examples = readExampleFlows();
    expect(examples.map((e) => e.file)).toEqual(
      expect.arrayContaining(["product-search-agent.json", "openapi-chain-only.json", "conversation.json"]),
    );
    for (const e of examples)
      expect(
        () => (e.type === "AGENTFLOW" ? validateAgentflowGraph(e.graph) : validateGraph(e.graph)),
        e.file,
      ).not.toThrow();
    expect(examples.filter((e) => e.type === "AGENTFLOW").map((e) => e.file)).toEqual([
      "agentflow-refund-approval.json",
      "agentflow-research.json",
      "agentflow-supervisor.json",
    ]);
    const agent = examples.find((e) => e.file === "product-search-agent.json")!;
    const chain = agent.graph.nodes.find((n) => n.type === "openApiChain")!;
    expect(String(chain.data.inputs.spec)).toContain("operationId: productsUsingGET");
  });

  it("load once, on the first start only", async () => {
    const count = readExampleFlows().length;
    expect(await loadExampleFlowsOnce()).toBe(count);
    expect(await loadExampleFlowsOnce()).toBe(0);
    expect(await (await getDb()).chatflow.count()).toBe(count);
    // Their test cases come with them, each on its own chatflow.
    const cases = await (await getDb()).chatflowTestCase.findMany({
      include: { chatflow: { select: { name: true } } },
    });
    const shipped = readExampleFlows().flatMap((e) => e.tests.map((t) => `${e.name}: ${t.name}`));
    expect(shipped.length).toBeGreaterThanOrEqual(6);
    expect(cases.map((c) => `${c.chatflow.name}: ${c.name}`).sort()).toEqual(shipped.sort());
  });
});
