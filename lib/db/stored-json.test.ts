import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/common/errors";
import { createLogger, replaceRootLogger } from "../log";
import { parseStoredJson } from "./stored-json";

const at = { table: "ChatflowTestCase", column: "expectations", id: "case-1" };
const schema = z.array(z.object({ type: z.literal("status"), value: z.number().int() }));

/** Captures the process logger's lines until the test ends. */
function captureLog(): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  restore = replaceRootLogger(createLogger({ level: "info", destination }));
  return lines;
}
let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

describe("parseStoredJson", () => {
  it("gives a stored value that matches as the schema reads it", () => {
    expect(parseStoredJson(schema, [{ type: "status", value: 200, extra: 1 }], at)).toEqual([
      { type: "status", value: 200 },
    ]);
  });

  it("answers a corrupt value with a 500 stored_data_invalid naming the row, and logs what differs", () => {
    const lines = captureLog();
    let thrown: unknown;
    try {
      parseStoredJson(schema, [{ type: "status", value: "200" }], at);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(thrown).toMatchObject({ code: "stored_data_invalid", status: 500 });
    expect((thrown as AppError).message).toContain("expectations of ChatflowTestCase case-1");
    expect(lines).toEqual([
      expect.objectContaining({
        level: "error",
        table: "ChatflowTestCase",
        column: "expectations",
        id: "case-1",
        issues: [expect.objectContaining({ path: "0.value" })],
      }),
    ]);
  });

  it("does not let a value of another type through (null where an array is stored)", () => {
    captureLog();
    expect(() => parseStoredJson(schema, null, at)).toThrow(expect.objectContaining({ code: "stored_data_invalid" }));
  });
});
