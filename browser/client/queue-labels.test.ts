import { describe, expect, it } from "vitest";
import { queueOfDefinition } from "@/lib/queue/job-queue";
import { QUEUE_NAMES } from "@/lib/queue/names";
import { countsLine, describeQueue } from "./queue-labels";

describe("queue labels", () => {
  it("names every queue the server has in plain words", () => {
    for (const name of Object.values(QUEUE_NAMES)) {
      const q = describeQueue(name);
      expect(q.title, name).not.toBe(name);
      expect(q.what, name).not.toBe("");
    }
    expect(describeQueue("chatflow-test-runs").title).toBe("Test runs");
  });

  it("names embedded mode's queues (job definition names) as their queue-mode queues", () => {
    for (const name of ["domain-analysis", "chatflow-test-run", "schedule-tick"]) {
      expect(describeQueue(name), name).toEqual(describeQueue(queueOfDefinition({ name })));
      expect(describeQueue(name).title, name).not.toBe(name);
    }
  });

  it("keeps an unknown queue's own name", () => {
    expect(describeQueue("mystery")).toEqual({ title: "mystery", what: "" });
  });

  it("sums a queue up in one line, zeros left out", () => {
    expect(countsLine({ waiting: 2, active: 1, delayed: 0, failed: 0, completed: 5 })).toBe(
      "2 waiting · 1 running · 5 done",
    );
    expect(countsLine({ waiting: 0, active: 0, delayed: 1, failed: 3, completed: 0 })).toBe("1 delayed · 3 failed");
    expect(countsLine({ waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 })).toBe("nothing yet");
  });
});
