import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { childLogger, createLogger, jobLogger, log, redactSecrets, replaceRootLogger, setLogRole } from "./log";

/** A logger writing into an array of parsed lines. */
function capture(role?: "api" | "worker") {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger({ level: "debug", role, destination }) };
}

describe("the structured log", () => {
  it("writes one JSON object per line with service, role, pid, level and message", () => {
    const { lines, logger } = capture();
    logger.info({ n: 1 }, "hello");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      service: "switchyard",
      role: "api",
      pid: process.pid,
      level: "info",
      msg: "hello",
      n: 1,
    });
    expect(typeof lines[0].time).toBe("string");
  });

  it("redacts authorization headers, cookies, passwords, API keys and credential data at any depth", () => {
    const { lines, logger } = capture();
    logger.info(
      {
        headers: { authorization: "Bearer sk-live-1", cookie: "next-auth.session-token=abc" },
        password: "hunter22",
        body: { user: { apiKey: "sk-2", name: "kept" } },
        credential: { data: { apiKey: "sk-3" } },
      },
      "request",
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ["sk-live-1", "abc", "hunter22", "sk-2", "sk-3"]) expect(text).not.toContain(secret);
    expect(text).toContain("kept");
    expect(lines[0]).toMatchObject({ password: "[redacted]", headers: { authorization: "[redacted]" } });
  });

  it("redacts a child's bindings, an error's own fields (keeping its class) and keys in any case, and never changes the caller's object", () => {
    const { lines, logger } = capture();
    const err = Object.assign(new TypeError("upstream refused"), {
      config: { headers: { Authorization: "Bearer sk-err-1", "X-Api-Key": "sk-err-2" } },
    });
    const logged = { err, request: { headers: { COOKIE: "sid=sk-cookie" } } };
    logger
      .child({ requestId: "r-1", token: "sk-child" })
      .child({ nested: { secret: "sk-grandchild" } })
      .error(logged, "failed");
    const text = JSON.stringify(lines[0]);
    for (const secret of ["sk-err-1", "sk-err-2", "sk-cookie", "sk-child", "sk-grandchild"])
      expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ requestId: "r-1", err: { type: "TypeError", message: "upstream refused" } });
    expect((lines[0].err as { stack: string }).stack).toContain("upstream refused");
    expect(logged.request.headers.COOKIE).toBe("sid=sk-cookie");
    expect(err.config.headers.Authorization).toBe("Bearer sk-err-1");
  });

  it("searches three levels below the logged object, as documented, and leaves lines without secrets as they are", () => {
    const { lines, logger } = capture();
    logger.info({ a: { b: { c: { password: "sk-deep-3" } } }, list: [{ apiKey: "sk-in-array" }], n: 1 }, "deep");
    const text = JSON.stringify(lines[0]);
    expect(text).not.toContain("sk-deep-3");
    expect(text).not.toContain("sk-in-array");
    const flat = { method: "POST", status: 200 };
    expect(redactSecrets(flat)).toBe(flat);
  });

  it("childLogger binds request and job ids; setLogRole marks a worker's lines once", () => {
    const { lines, logger } = capture();
    const restore = replaceRootLogger(logger);
    try {
      childLogger({ requestId: "req-1", jobId: "42" }).warn("job started");
      log.error({ err: new Error("boom") }, "failed");
    } finally {
      restore();
    }
    expect(lines[0]).toMatchObject({ requestId: "req-1", jobId: "42", level: "warn", msg: "job started" });
    expect(lines[1]).toMatchObject({ level: "error", err: { message: "boom", type: "Error" } });

    const worker = capture("worker");
    worker.logger.info("x");
    expect(worker.lines[0].role).toBe("worker");
    expect(JSON.stringify(worker.lines[0]).match(/"role"/g)).toHaveLength(1);
    // setLogRole makes a new root with the role (not a repeated key); undo it for the other tests.
    const undo = replaceRootLogger(logger);
    setLogRole("worker");
    undo();
  });

  it("jobLogger carries the job id and the request id the API process put in the job's data", () => {
    const { lines, logger } = capture("worker");
    const restore = replaceRootLogger(logger);
    try {
      jobLogger({ id: 7, name: "predict", data: { requestId: "req-from-api", chatflowId: "cf" } }).info("job done");
      jobLogger({ id: "8", data: { requestId: 42 } }).info("no usable request id");
    } finally {
      restore();
    }
    expect(lines[0]).toMatchObject({ role: "worker", jobId: "7", job: "predict", requestId: "req-from-api" });
    expect(lines[1]).toMatchObject({ jobId: "8" });
    expect(lines[1]).not.toHaveProperty("requestId");
  });
});
