import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { textOf, type ChatMessage } from "../../dev/model-stub/brain";
import { completionChunks, completionJson, splitForStreaming } from "../../dev/model-stub/wire";

/** The private redis-server of this test file (setup.ts); tests stop and restart it. */
export const queueRedis: { port: number; server?: ChildProcess } = { port: 0 };

const root = path.resolve(import.meta.dirname, "../..");
const children = new Set<ChildProcess>();

export type SpawnedWorker = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/**
 * Spawns a worker (`npm run worker`'s scripts/worker.ts) with this process's environment; resolves
 * once it logs its start line. Node itself with tsx's loader, not the tsx binary: the binary runs
 * the script in a child process, and a SIGKILL must hit the worker itself.
 */
export async function spawnWorker(extraEnv: Record<string, string> = {}): Promise<SpawnedWorker> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: root,
    env: { ...process.env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let out = "";
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  await waitFor(
    () => out.includes("worker ready") || child.exitCode !== null,
    30_000,
    () => out,
  );
  if (child.exitCode !== null) throw new Error(`worker exited at start:\n${out}`);
  return { child, output: () => out, exited };
}

/** Kills every worker still running (afterAll). */
export async function killWorkers(): Promise<void> {
  await Promise.all(
    [...children].map((c) => {
      const gone = new Promise((r) => c.once("exit", r));
      c.kill("SIGKILL");
      return gone;
    }),
  );
}

export async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000, why?: () => string) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting${why ? `:\n${why()}` : ""}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Events of a Flowise-style SSE body: `data: {"event","data"}` lines. */
export function sseEvents(text: string): { event: string; data: unknown }[] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)));
}

export type ModelCall = { messages: ChatMessage[]; stream: boolean; closedEarly: boolean; done: boolean };

/**
 * What the model answers one call: text, a wait before it, a wait between streamed tokens, or never
 * finishing. `gate`: the answer waits until the test resolves it (progress observed step by step, no timing).
 */
export type Plan = { text: string; delayMs?: number; tokenMs?: number; hang?: boolean; gate?: Promise<unknown> };

/**
 * An OpenAI-compatible chat server of the queue tests: answers per `plan` (slow answers, tokens
 * then silence), and records every call and whether its client closed the connection early (an
 * aborted run). Workers reach it through OPENAI_BASE_URL.
 */
export async function startModel(plan: (call: ModelCall, index: number) => Plan) {
  const calls: ModelCall[] = [];
  const server = http.createServer(async (req, res) => {
    let raw = "";
    for await (const part of req) raw += part;
    const body = JSON.parse(raw || "{}");
    const call: ModelCall = {
      messages: body.messages ?? [],
      stream: body.stream === true,
      closedEarly: false,
      done: false,
    };
    calls.push(call);
    res.on("close", () => {
      if (!res.writableFinished) call.closedEarly = true;
    });
    const p = plan(call, calls.length - 1);
    const sleep = (ms = 0) => new Promise((r) => setTimeout(r, ms));
    await sleep(p.delayMs);
    if (p.gate) await p.gate;
    if (res.destroyed) return;
    const reply = { content: p.text };
    if (!call.stream) {
      if (p.hang) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(completionJson(reply, "tools", "stub-model", call.messages)));
      call.done = true;
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunks = completionChunks(reply, "tools", "stub-model", call.messages, false);
    const last = chunks.length - 1;
    for (const [i, chunk] of chunks.entries()) {
      if (res.destroyed) return;
      if (i === last && p.hang) return; // the tokens went out; the answer never ends
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (i > 0) await sleep(p.tokenMs);
    }
    res.end("data: [DONE]\n\n");
    call.done = true;
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    calls,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The user turns the model saw, for memory checks. */
export const userTexts = (call: ModelCall) =>
  call.messages.filter((m) => m.role === "user").map((m) => textOf(m.content));
export { splitForStreaming };
