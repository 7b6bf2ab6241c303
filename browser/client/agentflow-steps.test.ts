import { describe, expect, it } from "vitest";
import { answerSteps, feedbackEnabled, readAction, startedStep, stepStatusLabel } from "./agentflow-steps";
import type { HumanInputAction } from "@/common/schemas/prediction-stream";

const node = (nodeId: string, status: string, timeMs?: number) => ({
  nodeId,
  nodeLabel: nodeId.toUpperCase(),
  data: { output: { content: "secret output" } },
  previousNodeIds: [],
  status,
  ...(timeMs !== undefined ? { timeMs } : {}),
});

const action = (input?: unknown): HumanInputAction => ({
  id: "a1",
  mapping: { approve: "Proceed", reject: "Reject" },
  elements: [],
  data: { nodeId: "approve", nodeLabel: "Approve refund", ...(input !== undefined ? { input } : {}) },
});

describe("answerSteps", () => {
  it("keeps each node's label, outcome and time, not what it computed", () => {
    expect(answerSteps([node("start", "FINISHED", 3), node("approve", "STOPPED")])).toEqual([
      { nodeId: "start", label: "START", status: "FINISHED", timeMs: 3 },
      { nodeId: "approve", label: "APPROVE", status: "STOPPED" },
    ]);
  });

  it("leaves out the steps earlier answers of a resumed run showed", () => {
    const run = [
      node("start", "FINISHED"),
      node("approve", "STOPPED"),
      node("approve", "FINISHED"),
      node("ok", "FINISHED"),
    ];
    expect(answerSteps(run, 2)?.map((s) => `${s.nodeId}:${s.status}`)).toEqual(["approve:FINISHED", "ok:FINISHED"]);
    expect(answerSteps(run, 9)).toEqual([]);
  });

  it("ignores what is not a list of nodes", () => {
    expect(answerSteps("nope")).toBeUndefined();
    expect(answerSteps([null, { nodeId: 1 }, node("start", "FINISHED")])?.map((s) => s.nodeId)).toEqual(["start"]);
  });
});

describe("startedStep", () => {
  it("names the node that started, and nothing when one ended", () => {
    expect(startedStep({ nodeId: "lookup", nodeLabel: "Check the product", status: "INPROGRESS" })).toBe(
      "Check the product",
    );
    expect(startedStep({ nodeId: "lookup", nodeLabel: "", status: "INPROGRESS" })).toBe("lookup");
    expect(startedStep({ nodeId: "lookup", nodeLabel: "Check the product", status: "FINISHED" })).toBeNull();
    expect(startedStep(null)).toBeNull();
  });
});

describe("readAction and feedbackEnabled", () => {
  it("takes an action that names the node to resume at", () => {
    expect(readAction(action())?.data.nodeId).toBe("approve");
    expect(readAction({ id: "x", data: {} })).toBeUndefined();
    expect(readAction("STOPPED")).toBeUndefined();
  });

  it("offers feedback unless the node turned it off", () => {
    expect(feedbackEnabled(action({ humanInputEnableFeedback: true }))).toBe(true);
    expect(feedbackEnabled(action())).toBe(true);
    expect(feedbackEnabled(action({ humanInputEnableFeedback: false }))).toBe(false);
  });
});

it("says how a step ended", () => {
  expect(["FINISHED", "STOPPED", "ERROR", "INPROGRESS"].map((s) => stepStatusLabel(s as never))).toEqual([
    "done",
    "paused",
    "failed",
    "running",
  ]);
});
