import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { OutputTail, type RunningProcess, spawnReady, startWorkerProcess } from "./processes";
import { freePort } from "./redis-server";

// The spawn / wait / stop mechanics on tiny scripts run the way workers are (through tsx).
// startApiProcess needs a production build, which `npm test` makes after these tests: it is exercised
// by e2e/queue-mode.spec.ts (two API processes, served, then stopped with SIGTERM → exit 0).

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-processes-"));
const started: RunningProcess[] = [];
afterAll(async () => {
  for (const p of started) await p.kill();
  fs.rmSync(dir, { recursive: true, force: true });
});

function script(name: string, body: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, body);
  return file;
}

const alive = (pid: number | undefined) => {
  try {
    process.kill(pid ?? -1, 0);
    return true;
  } catch {
    return false;
  }
};

const workerLike = script(
  "worker-like.mjs",
  `console.log("starting");
console.error("a warning on stderr");
setTimeout(() => console.log(JSON.stringify({ level: "info", msg: "worker ready", id: process.env.WORKER_ID })), 50);
setTimeout(() => console.log("custom-ready"), 100);
process.on("SIGTERM", () => { console.log("draining"); setTimeout(() => process.exit(0), 10); });
setInterval(() => {}, 1000);
`,
);

describe("dev/processes.ts", () => {
  it("starts a worker through tsx, waits for `worker ready`, passes the env, and stops it with SIGTERM", async () => {
    const w = await startWorkerProcess({ WORKER_ID: "w-7" }, { script: workerLike });
    started.push(w);
    expect(w.output()).toContain("starting");
    expect(w.output()).toContain('"msg":"worker ready","id":"w-7"');
    expect(alive(w.child.pid)).toBe(true);
    expect(await w.stop()).toEqual({ code: 0, signal: null });
    expect(w.output()).toContain("draining");
  });

  it("takes the readiness predicate as a parameter", async () => {
    const w = await startWorkerProcess({}, { script: workerLike, ready: (line) => line === "custom-ready" });
    started.push(w);
    expect(w.output()).toContain("custom-ready");
    expect(await w.kill()).toEqual({ code: null, signal: "SIGKILL" });
  });

  it("fails with the process's output when it exits before it is ready", async () => {
    const crashing = script("crash.mjs", 'console.error("boom: REDIS_URL is not set"); process.exit(3);');
    await expect(startWorkerProcess({}, { script: crashing })).rejects.toThrow(
      /exited before it was ready \(code 3[\s\S]*boom: REDIS_URL is not set/,
    );
  });

  it("kills a process that is not ready in time and says so", { timeout: 20_000 }, async () => {
    const pidFile = path.join(dir, "pid");
    const silent = script(
      "silent.mjs",
      `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000);`,
    );
    await expect(startWorkerProcess({}, { script: silent, timeoutMs: 5_000 })).rejects.toThrow(
      /not ready after 5000 ms/,
    );
    // The script's own process (tsx runs it in a child), not only tsx, is gone.
    // (A killed process may linger a moment as a zombie until init reaps it.)
    const pid = Number(fs.readFileSync(pidFile, "utf8"));
    for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
  });

  it("kill() ends a process that ignores SIGTERM", async () => {
    const stubborn = script(
      "stubborn.mjs",
      'process.on("SIGTERM", () => console.log("ignored")); console.log("worker ready"); setInterval(() => {}, 1000);',
    );
    const w = await startWorkerProcess({}, { script: stubborn });
    started.push(w);
    w.child.kill("SIGTERM");
    expect(alive(w.child.pid)).toBe(true);
    expect((await w.kill()).signal).toBe("SIGKILL");
  });

  it("can wait by polling (how API processes are awaited: until the port answers)", async () => {
    const port = await freePort();
    const server = script(
      "server.mjs",
      `import http from "node:http";
setTimeout(() => http.createServer((q, s) => s.end("pong")).listen(Number(process.env.PORT), "127.0.0.1"), 200);`,
    );
    const p = await spawnReady({
      command: process.execPath,
      args: [server],
      env: { PORT: String(port) },
      ready: { poll: async () => (await fetch(`http://127.0.0.1:${port}/`)).ok },
    });
    started.push(p);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("pong");
    await p.stop();
  });
});

describe("OutputTail", () => {
  it("holds exactly the last `max` characters of what was pushed, in order", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const max of [1, 10, 100, 5_000]) {
      const tail = new OutputTail(max);
      let all = "";
      for (let i = 0; i < 3_000; i++) {
        // Chunks shorter and longer than max, some empty.
        const chunk = `${i}:`.padEnd(rand(3) === 0 ? rand(max * 3 + 1) : rand(40), String.fromCharCode(97 + (i % 26)));
        tail.push(chunk);
        all += chunk;
        if (i % 97 === 0 || i === 2_999) expect(tail.text()).toBe(all.slice(-max));
      }
    }
  });

  it("holds everything while under its limit", () => {
    const tail = new OutputTail(1_000);
    expect(tail.text()).toBe("");
    tail.push("one\n");
    tail.push("");
    tail.push("two\n");
    expect(tail.text()).toBe("one\ntwo\n");
  });
});
