import { afterAll, describe, expect, it, vi } from "vitest";
import { runInSandbox, sandboxAppError, sandboxPool } from "./index";
import type { SandboxFetchRequest, SandboxOutcome, SandboxRequest } from "./types";

afterAll(() => sandboxPool().close());

// Several runs per test, some filling their memory (each then gets a new QuickJS instance): seconds
// on a loaded machine, where vitest's default of 5 s is short.
vi.setConfig({ testTimeout: 30_000 });

const run = (code: string, more: Omit<SandboxRequest, "code"> = {}) =>
  runInSandbox({ code, ...more, limits: { timeoutMs: 2_000, memoryMb: 32, ...more.limits } });

/** The failure of a run that must fail. */
async function failure(code: string, more: Omit<SandboxRequest, "code"> = {}) {
  const outcome = await run(code, more);
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.error;
}

const flow = { sessionId: "s1", chatId: "c1", chatflowId: "f1", input: "hello", state: { count: 2 } };

describe("running user code", () => {
  it("returns a string or JSON, sync or async, with $input, $flow, $vars and named variables", async () => {
    const variables = { input: "hello", flow, vars: { greeting: "Hi" }, city: "Paris" };
    expect(await run('return $vars.greeting + ", " + $input + " from " + $city', { variables })).toMatchObject({
      ok: true,
      value: "Hi, hello from Paris",
    });
    const asyncCode = `
      const wait = (v) => new Promise((resolve) => resolve(v));
      const count = await wait($flow.state.count);
      return { session: $flow.sessionId, next: count + 1, list: [1, "two", null, true] };`;
    expect(await run(asyncCode, { variables })).toMatchObject({
      ok: true,
      value: { session: "s1", next: 3, list: [1, "two", null, true] },
    });
  });

  it("copies variables in: changing them inside changes nothing outside", async () => {
    const state = { items: [1, 2] };
    const outcome = await run("$state.items.push(3); return $state.items.length", { variables: { state } });
    expect(outcome).toMatchObject({ ok: true, value: 3 });
    expect(state.items).toEqual([1, 2]);
  });

  it("treats a function without return as null and captures console lines", async () => {
    const outcome = await run('console.log("a", 1, { b: 2 }); console.warn("careful")');
    expect(outcome).toMatchObject({
      ok: true,
      value: null,
      console: [
        { level: "log", text: 'a 1 {"b":2}' },
        { level: "warn", text: "careful" },
      ],
      consoleTruncated: false,
    });
  });

  it("bounds the console", async () => {
    const outcome = await run('for (let i = 0; i < 10000; i++) console.log("line " + i); return 1', {
      limits: { maxConsoleBytes: 1000 },
    });
    expect(outcome.ok).toBe(true);
    expect(outcome.consoleTruncated).toBe(true);
    expect(outcome.console.length).toBeLessThan(200);
    expect(outcome.console[0].text).toBe("line 0");
  });

  it("starts fresh every run: nothing one run leaves is seen by the next", async () => {
    await run("globalThis.leftover = 42; Object.prototype.polluted = true; return 1");
    expect(await run("return [typeof leftover, ({}).polluted ?? null]")).toMatchObject({
      value: ["undefined", null],
    });
  });
});

describe("what user code gets wrong", () => {
  it("names the script's message and line", async () => {
    const error = await failure("const a = 1;\nconst b = null;\nreturn b.missing;");
    expect(error).toMatchObject({ kind: "error", line: 3 });
    expect(error.message).toMatch(/^TypeError: .*\(line 3\)$/);
    expect(await failure("\n\nthrow new Error('the API key is missing')")).toMatchObject({
      kind: "error",
      line: 3,
      message: "Error: the API key is missing (line 3)",
    });
  });

  it("reports a syntax error, a rejected promise and a thrown non-error", async () => {
    expect(await failure("return {{")).toMatchObject({ kind: "error", message: expect.stringMatching(/^SyntaxError/) });
    expect(await failure("await Promise.reject(new RangeError('nope'))")).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/^RangeError: nope/),
    });
    expect(await failure("throw { code: 7 }")).toMatchObject({ kind: "error", message: 'threw {"code":7}' });
  });

  it("refuses a result that is not JSON or too big", async () => {
    expect(await failure("return () => 1")).toMatchObject({ kind: "bad_result" });
    expect(await failure("return 10n")).toMatchObject({
      kind: "bad_result",
      message: expect.stringMatching(/BigInt/i),
    });
    expect(await failure("const a = {}; a.self = a; return a")).toMatchObject({ kind: "bad_result" });
    expect(await failure("return 'x'.repeat(5000)", { limits: { maxResultBytes: 4096 } })).toMatchObject({
      kind: "bad_result",
      message: expect.stringContaining("4096 bytes"),
    });
    expect(await failure("let v = 1; for (let i = 0; i < 100; i++) v = [v]; return v")).toMatchObject({
      kind: "bad_result",
      message: expect.stringContaining("64 levels"),
    });
  });

  it("says when the function waits on something that never comes", async () => {
    expect(await failure("await new Promise(() => {})")).toMatchObject({
      kind: "error",
      message: expect.stringContaining("never settles"),
    });
  });

  it("maps each failure to a 422 AppError naming what ran", async () => {
    const error = sandboxAppError(
      await failure("while (true) {}", { limits: { timeoutMs: 50 } }),
      'Custom Function "f1"',
    );
    expect(error).toMatchObject({ code: "sandbox_timeout", status: 422 });
    expect(error.message).toBe('Custom Function "f1": the function ran longer than 50 ms (SANDBOX_TIMEOUT_MS)');
  });
});

/** Each attempt to reach the host ends in a clear error, from inside QuickJS. */
describe("escape attempts", () => {
  const expectError = async (code: string, message: RegExp) => {
    const error = await failure(code);
    expect(error.kind).toBe("error");
    expect(error.message).toMatch(message);
  };

  it("finds no process, require, module, fetch or file system", async () => {
    await expectError("return process.env", /^ReferenceError: 'process' is not defined/);
    await expectError("return require('fs')", /^ReferenceError: 'require' is not defined/);
    await expectError("return module.exports", /^ReferenceError: 'module' is not defined/);
    await expectError("return await fetch('http://127.0.0.1/')", /^ReferenceError: 'fetch' is not defined/);
    await expectError("return await import('node:fs')", /import|module/i);
    await expectError("return await import('./worker.mjs')", /import|module/i);
    const globals = await run("return Object.getOwnPropertyNames(globalThis)");
    expect(globals.value).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^(process|require|fetch|Buffer|setTimeout|std|os|WebAssembly)$/)]),
    );
  });

  it("reaches only QuickJS through constructors, Function and eval", async () => {
    await expectError("return globalThis.constructor.constructor('return process')()", /'process' is not defined/);
    await expectError("return console.log.constructor('return require')()", /'require' is not defined/);
    await expectError("return (async () => {}).constructor('return process')()", /'process' is not defined/);
    await expectError("return eval('process.mainModule')", /'process' is not defined/);
    await expectError("return new Function('return this.process.env')()", /TypeError/);
    await expectError(
      "return Object.getPrototypeOf(console).constructor.constructor('return require')()",
      /'require' is not defined/,
    );
  });

  it("cannot climb out through prototypes of the values passed in", async () => {
    const outcome = await run(
      `const found = [];
       for (const v of [$input, $flow, $flow.state, console, console.log]) {
         const F = v.constructor.constructor;
         found.push(F("return typeof process + typeof require + typeof Buffer")());
         found.push(Object.getPrototypeOf(v) === null ? "null" : typeof Object.getPrototypeOf(v).__lookupGetter__);
       }
       $flow.__proto__.polluted = "yes";
       return found.concat([({}).polluted]);`,
      { variables: { input: "x", flow } },
    );
    expect(outcome.ok).toBe(true);
    const found = outcome.value as string[];
    expect(found.filter((s) => s.includes("undefinedundefinedundefined"))).toHaveLength(5);
    // The pollution stayed inside the run; the host's Object.prototype is untouched.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("ends an endless loop at the time limit, naming it", async () => {
    expect(await failure("while (true) {}", { limits: { timeoutMs: 100 } })).toEqual({
      kind: "timeout",
      limitMs: 100,
      message: "the function ran longer than 100 ms (SANDBOX_TIMEOUT_MS)",
    });
    // Catching the interruption does not help; nor does an endless chain of promise jobs.
    expect(
      await failure("for (;;) { try { while (true) {} } catch (e) {} }", { limits: { timeoutMs: 100 } }),
    ).toMatchObject({ kind: "timeout" });
    expect(
      await failure("const f = () => Promise.resolve().then(f); f(); await new Promise(() => {})", {
        limits: { timeoutMs: 100 },
      }),
    ).toMatchObject({ kind: "timeout" });
    expect(await failure("return /(a+)+$/.test('a'.repeat(40) + 'b')", { limits: { timeoutMs: 100 } })).toMatchObject({
      kind: "timeout",
    });
  });

  it("ends a 1 GB allocation at the memory limit, naming it", async () => {
    const memory = {
      kind: "memory",
      limitMb: 32,
      message: "the function used more than 32 MB of memory (SANDBOX_MEMORY_MB)",
    };
    expect(await failure("return new ArrayBuffer(1024 * 1024 * 1024).byteLength")).toEqual(memory);
    expect(await failure("const a = []; for (;;) a.push(new Uint8Array(1024 * 1024))")).toEqual(memory);
    // Kept reachable from a global, the memory stays full; the report still comes.
    expect(await failure("globalThis.keep = []; for (;;) keep.push('x'.repeat(1e6) + keep.length)")).toEqual(memory);
    // Small objects until nothing is left, not even for QuickJS's own error (it throws null then).
    expect(await failure("globalThis.keep = []; for (let i = 0; ; i++) keep.push({ i, s: 'abcdefghij' })")).toEqual(
      memory,
    );
    // Variables that do not fit are the same limit.
    expect(await failure("return $big.length", { variables: { big: "x".repeat(40 * 1024 * 1024) } })).toEqual(memory);
    expect(await run("return 'the next run has its memory'")).toMatchObject({ ok: true });
  });

  it("lets code that catches a refused allocation go on", async () => {
    const outcome = await run("try { new ArrayBuffer(1024 * 1024 * 1024) } catch (e) { return e.message }");
    expect(outcome).toMatchObject({ ok: true, value: "out of memory" });
  });

  it("ends a deep recursion with a stack overflow, and the worker goes on", async () => {
    expect(await failure("const f = (n) => f(n + 1) + 1; return f(0)")).toMatchObject({
      kind: "error",
      message: expect.stringMatching(/^stack overflow: the recursion went deeper than the sandbox's 512 KiB stack/),
    });
    expect(await run("const f = (n) => (n === 0 ? 0 : 1 + f(n - 1)); return f(500)")).toMatchObject({ value: 500 });
  });
});

describe("fetch, when the caller gives it", () => {
  it("goes only through the capability, with JSON in and out", async () => {
    const requests: SandboxFetchRequest[] = [];
    const outcome = await run(
      `const r = await fetch("https://api.example.com/items", { method: "post", headers: { "X-Key": 1 }, body: JSON.stringify({ q: $input }) });
       return { ok: r.ok, status: r.status, type: r.headers.get("Content-Type"), body: await r.json() };`,
      {
        variables: { input: "hi" },
        fetch: async (request) => {
          requests.push(request);
          return {
            url: request.url,
            status: 200,
            statusText: "OK",
            headers: { "content-type": "application/json" },
            body: '{"items":[1]}',
          };
        },
      },
    );
    expect(outcome).toMatchObject({
      ok: true,
      value: { ok: true, status: 200, type: "application/json", body: { items: [1] } },
    });
    expect(requests).toEqual([
      { url: "https://api.example.com/items", method: "POST", headers: { "X-Key": "1" }, body: '{"q":"hi"}' },
    ]);
  });

  it("hands a refusal of the capability to the code as a rejected fetch", async () => {
    const outcome: SandboxOutcome = await run(
      "try { await fetch('http://10.0.0.1/'); } catch (e) { return e.message }",
      {
        fetch: async () => {
          throw new Error("10.0.0.1 is a private address");
        },
      },
    );
    expect(outcome).toMatchObject({ ok: true, value: "fetch failed: 10.0.0.1 is a private address" });
  });

  it("does not copy in an answer the run has no memory left for", async () => {
    const code = `const keep = [];
      try { for (;;) keep.push(new Uint8Array(256 * 1024)) } catch {}
      const r = await fetch("https://api.example.com/big");
      return (await r.text()).length`;
    const body = "x".repeat(4 * 1024 * 1024);
    const error = await failure(code, {
      fetch: async (request) => ({ url: request.url, status: 200, statusText: "OK", headers: {}, body }),
    });
    expect(error).toMatchObject({ kind: "memory", limitMb: 32 });
  });

  it("counts a fetch that never answers against the time limit", async () => {
    const error = await failure("await fetch('https://slow.example.com/')", {
      limits: { timeoutMs: 100 },
      fetch: () => new Promise(() => {}),
    });
    expect(error).toMatchObject({ kind: "timeout", limitMs: 100 });
  });
});

describe("the pool", () => {
  it("replaces a worker that dies, answering its run with a clear error", async () => {
    const running = run("while (true) {}", { limits: { timeoutMs: 10_000 } });
    const threads = () => sandboxPool().threads();
    await expect.poll(() => threads().length).toBeGreaterThan(0);
    await Promise.all(threads().map((t) => t.terminate()));
    expect(await running).toMatchObject({
      ok: false,
      error: { kind: "error", message: expect.stringMatching(/worker stopped/) },
    });
    expect(await run("return 'still here'")).toMatchObject({ ok: true, value: "still here" });
  });

  it("refuses a variable name that is not an identifier", () => {
    expect(() => runInSandbox({ code: "return 1", variables: { "a-b": 1 } })).toThrow(/"a-b" is not an identifier/);
  });
});
