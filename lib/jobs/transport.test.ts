import { describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { inProcessTransport, type RunKind, runOnWorker } from "./transport";

// The in-process transport and the worker's processor run a kind's two steps the same way; the queue
// transport (runJob over Redis to real workers) is tested in tests/queue (predictions, faults).

type Input = { n: number; fail?: "prepare" | "execute" };

function kind(log: string[]): RunKind<Input, { doubled: number }, string> {
  return {
    queue: "predictions",
    async prepare(input) {
      log.push(`prepare ${input.n}`);
      if (input.fail === "prepare") throw new AppError("validation_failed", "bad input");
      return { doubled: input.n * 2 };
    },
    async execute(prepared, ctx) {
      log.push(`execute ${prepared.doubled} attempt ${ctx.attempt} job ${ctx.jobId ?? "-"}`);
      ctx.emit("token", "a");
      ctx.emit("token", "b");
      if (prepared.doubled < 0) throw new AppError("upstream_error", "model failed");
      return `done ${prepared.doubled}`;
    },
  };
}

describe("the in-process transport", () => {
  it("prepares at start (a bad input fails the start, before any answer), executes when asked, relays events", async () => {
    const log: string[] = [];
    const started = await inProcessTransport.start(kind(log), { n: 2 });
    expect(log).toEqual(["prepare 2"]);
    const events: unknown[] = [];
    await expect(started.execute({ onEvent: (name, data) => events.push([name, data]) })).resolves.toBe("done 4");
    expect(log).toEqual(["prepare 2", "execute 4 attempt 1 job -"]);
    expect(events).toEqual([
      ["token", "a"],
      ["token", "b"],
    ]);
    await expect(inProcessTransport.start(kind(log), { n: 1, fail: "prepare" })).rejects.toThrow("bad input");
    // No listener: events go nowhere, the result is the same.
    await expect((await inProcessTransport.start(kind([]), { n: 3 })).execute({})).resolves.toBe("done 6");
    await expect((await inProcessTransport.start(kind([]), { n: -1 })).execute({})).rejects.toThrow("model failed");
  });

  it("hands `known` to prepare and never hands the input over (that is for a queue worker)", async () => {
    const log: string[] = [];
    const withKnown: RunKind<Input, { doubled: number }, string, string> = {
      ...kind(log),
      async prepare(input, known) {
        log.push(`prepare ${input.n} knowing ${known}`);
        return { doubled: input.n * 2 };
      },
      async handOver() {
        throw new Error("handed over in process");
      },
    };
    const started = await inProcessTransport.start(withKnown, { n: 1 }, { known: "the row" });
    await expect(started.execute({})).resolves.toBe("done 2");
    expect(log).toEqual(["prepare 1 knowing the row", "execute 2 attempt 1 job -"]);
  });
});

describe("a worker's processor (runOnWorker)", () => {
  it("prepares and executes in the job's context: its id, attempt, signal and emit", async () => {
    const log: string[] = [];
    const emitted: unknown[] = [];
    const signal = new AbortController().signal;
    const result = await runOnWorker(kind(log))(
      { n: 5 },
      { jobId: "job-1", attempt: 2, signal, emit: (n, d) => emitted.push([n, d]), log: () => {} },
    );
    expect(result).toBe("done 10");
    expect(log).toEqual(["prepare 5", "execute 10 attempt 2 job job-1"]);
    expect(emitted).toHaveLength(2);
  });
});
