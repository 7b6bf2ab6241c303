import { describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import type { Graph } from "@/common/schemas/graph";
import { testContext } from "../flow/__fixtures__/graphs";
import { buildAgentflow, type BuiltAgentflow, validateAgentflowGraph } from "./build";
import { type ExecutionSnapshot, runAgentflow } from "./engine";
import { initialPosition } from "./position";
import { edge, node } from "../../dev/agentflow-graph";

const reply = (id: string, message: string) => node(id, "directReplyAgentflow", { directReplyMessage: message });

async function built(graph: Graph): Promise<BuiltAgentflow> {
  return (await buildAgentflow(graph, testContext())).agentflow!;
}

/**
 * Runs a graph to its end with an in-memory store; returns the result and every snapshot saved.
 * `impure`: every step counts as reaching outside the run (as a model or HTTP step does), so each is saved.
 */
async function run(graph: Graph, question: string, opts: { maxSteps?: number; impure?: boolean } = {}) {
  const flow = await built(graph);
  const saved: ExecutionSnapshot[] = [];
  const result = await runAgentflow({
    graph: flow.graph,
    stepOf: opts.impure ? (id) => ({ ...flow.stepOf(id), pure: false }) : flow.stepOf,
    ids: { chatflowId: "cf", chatId: "chat-1", sessionId: "s-1" },
    question,
    history: [],
    start: { state: {}, position: initialPosition(flow.startId, question), executedData: [] },
    maxSteps: opts.maxSteps ?? 200,
    save: async (s) => {
      saved.push(structuredClone(s));
    },
  });
  return { result, saved, ran: result.executedData.map((e) => e.nodeId) };
}

const refundRules = [{ type: "string", value1: "{{question}}", operation: "contains", value2: "refund" }];

/**
 * Start → Condition (does the question mention a refund?) → "refund" or "other" (each a pass-through
 * Condition: always branch0, always else) → a join after both.
 */
const branching: Graph = {
  nodes: [
    node("start", "startAgentflow", { startState: [{ key: "topic", value: "none" }] }),
    node("cond", "conditionAgentflow", { conditions: refundRules }),
    node("refund", "conditionAgentflow", {
      conditions: [{ type: "boolean", value1: true, operation: "equal", value2: true }],
    }),
    node("other", "conditionAgentflow", { conditions: [] }),
    reply("join", "after {{cond}}"),
  ],
  edges: [
    edge("start", "output", "cond"),
    edge("cond", "branch0", "refund"),
    edge("cond", "else", "other"),
    edge("refund", "branch0", "join"),
    edge("other", "else", "join"),
  ],
};

describe("agentflow engine: branches", () => {
  it("runs only the branch a Condition takes; a node after both branches runs once, after the taken one", async () => {
    const refund = await run(branching, "I want a refund");
    expect(refund.ran).toEqual(["start", "cond", "refund", "join"]);
    expect(refund.result).toMatchObject({ status: "finished", text: "after branch0" });
    const other = await run(branching, "hello");
    expect(other.ran).toEqual(["start", "cond", "other", "join"]);
    expect(other.result.text).toBe("after else");
  });

  it("saves the execution after every node that reaches outside the run, the last save finished", async () => {
    const { saved } = await run(branching, "hello", { impure: true });
    expect(saved.map((s) => s.executedData.length)).toEqual([1, 2, 3, 4]);
    expect(saved.map((s) => s.status)).toEqual(["running", "running", "running", "finished"]);
    expect(saved[1].position.outputs.cond).toMatchObject({ content: "else" });
  });

  it("a pure step's end rides with the next save: Start, Conditions and Direct Reply alone save once, finished", async () => {
    const { saved, ran } = await run(branching, "hello");
    expect(ran).toEqual(["start", "cond", "other", "join"]);
    expect(saved.map((s) => [s.status, s.executedData.length])).toEqual([["finished", 4]]);
  });
});

describe("agentflow engine: durability", () => {
  it("a run continued from a stored snapshot runs only the nodes after it (as after a crash)", async () => {
    const first = await run(branching, "I want a refund", { impure: true });
    const afterCond = first.saved[1]; // saved once "start" and "cond" finished
    const flow = await built(branching);
    const again = await runAgentflow({
      graph: flow.graph,
      stepOf: flow.stepOf,
      ids: { chatflowId: "cf", chatId: "chat-1", sessionId: "s-1" },
      question: "I want a refund",
      history: [],
      start: structuredClone(afterCond),
      maxSteps: 200,
      save: async () => {},
    });
    expect(again.executedData.map((e) => e.nodeId)).toEqual(["start", "cond", "refund", "join"]);
    expect(again.executedData.slice(0, 2)).toEqual(afterCond.executedData);
    expect(again.text).toBe("after branch0");
  });
});

describe("agentflow engine: state and variables", () => {
  it("starts with Start's state and resolves question, state, run ids and node outputs", async () => {
    const graph: Graph = {
      nodes: [
        node("start", "startAgentflow", { startState: [{ key: "greeting", value: "hi {{question}}" }] }),
        reply(
          "r",
          "{{$flow.state.greeting}} | {{$flow.chatId}} {{$flow.sessionId}} {{$flow.chatflowId}} | {{start}} | {{start.question}}",
        ),
      ],
      edges: [edge("start", "output", "r")],
    };
    const { result } = await run(graph, "Ada");
    expect(result.text).toBe("hi Ada | chat-1 s-1 cf | Ada | Ada");
    expect(result.state).toEqual({ greeting: "hi Ada" });
  });
});

/** Start → step → Loop back to step, at most `max` times. */
function loopGraph(max: number): Graph {
  return {
    nodes: [
      node("start", "startAgentflow"),
      node("step", "conditionAgentflow", { conditions: [] }),
      node("loop", "loopAgentflow", { loopBackToNode: "step", maxLoopCount: max, fallbackMessage: "gave up" }),
    ],
    edges: [edge("start", "output", "step"), edge("step", "else", "loop")],
  };
}

describe("agentflow engine: loops", () => {
  it("goes back at most Max Loop Count times, then ends with the fallback message", async () => {
    const { ran, result } = await run(loopGraph(2), "go");
    expect(ran).toEqual(["start", "step", "loop", "step", "loop", "step", "loop"]);
    expect(result.text).toBe("gave up");
  });

  it("a run past the step limit is 422 naming the loop", async () => {
    const err = await run(loopGraph(1000), "go", { maxSteps: 20 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(422);
    expect((err as AppError).message).toContain('loop "Loop" (loop)');
  });
});

describe("agentflow validation", () => {
  const problems = (graph: Graph) => {
    try {
      validateAgentflowGraph(graph);
      return [];
    } catch (e) {
      return ((e as AppError).details as { code: string; nodeId?: string; message: string }[]) ?? [];
    }
  };

  it("accepts the graphs above", () => {
    expect(problems(branching)).toEqual([]);
    expect(problems(loopGraph(2))).toEqual([]);
  });

  it("refuses a cycle without a Loop node", () => {
    const graph: Graph = {
      nodes: [node("start", "startAgentflow"), node("a", "conditionAgentflow", { conditions: [] }), reply("b", "x")],
      edges: [edge("start", "output", "a"), edge("a", "else", "b"), { ...edge("a", "else", "a"), id: "back" }],
    };
    expect(problems(graph)).toContainEqual(expect.objectContaining({ code: "agentflow_cycle" }));
  });

  it("refuses a Loop whose target is not upstream", () => {
    const graph = loopGraph(2);
    graph.nodes.push(reply("elsewhere", "x"));
    graph.edges.push(edge("start", "output", "elsewhere"));
    (graph.nodes[2].data.inputs as Record<string, unknown>).loopBackToNode = "elsewhere";
    expect(problems(graph)).toContainEqual(
      expect.objectContaining({ code: "loop_target_not_upstream", nodeId: "loop" }),
    );
  });

  it("refuses variables that name nothing: unknown nodes, undeclared state keys, unknown names", () => {
    const graph: Graph = {
      nodes: [node("start", "startAgentflow"), reply("r", "{{nobody}} {{$flow.state.missing}} {{start}} {{question}}")],
      edges: [edge("start", "output", "r")],
    };
    const found = problems(graph).filter((p) => p.code === "unknown_variable");
    expect(found.map((p) => p.message)).toEqual([
      expect.stringContaining("{{nobody}}"),
      expect.stringContaining("{{$flow.state.missing}}"),
    ]);
  });

  it("refuses a flow without exactly one Start", () => {
    const graph: Graph = { nodes: [reply("r", "x")], edges: [] };
    expect(problems(graph)).toContainEqual(expect.objectContaining({ code: "agentflow_start" }));
  });
});
