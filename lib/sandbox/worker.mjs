// @ts-check
// Entry of a sandbox worker thread (started by lib/sandbox/pool.ts). It runs one job at a time
// (engine.mjs), each in a fresh QuickJS runtime of a QuickJS instance kept for the next job. User code never sees this
// thread's globals: it lives in QuickJS's WebAssembly heap. A fetch of user code is a message to
// the server's thread, which holds the caller's capability.
import fs from "node:fs";
import os from "node:os";
import { parentPort } from "node:worker_threads";
import { loadEngine, runJob } from "./engine.mjs";

/**
 * @typedef {import("./types").ToWorker} ToWorker
 * @typedef {import("./types").FromWorker} FromWorker
 * @typedef {import("./types").SandboxFetchResponse} SandboxFetchResponse
 */

if (!parentPort) throw new Error("lib/sandbox/worker.mjs runs as a worker thread of lib/sandbox/pool.ts");
const port = parentPort;

/**
 * This thread yields the CPU to the server's thread: user code that spins competes with requests
 * only for what they leave. Linux applies setpriority to the one thread whose id it is given
 * (/proc/thread-self names it); elsewhere the thread keeps the process's priority.
 */
const NICE = 10;
try {
  const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
  if (tid > 0) os.setPriority(tid, Math.max(os.getPriority(tid), NICE));
} catch {
  // Not Linux: nothing to lower.
}
const send = (/** @type {FromWorker} */ message) => port.postMessage(message);

/**
 * The QuickJS instance of the last memory limit a job asked for (its WebAssembly memory's maximum;
 * jobs ask for the setting's, tests lower it).
 * @type {{ memoryMb: number; engine: ReturnType<typeof loadEngine> } | undefined} */
let current;
const engineFor = (/** @type {number} */ memoryMb) => {
  if (current?.memoryMb !== memoryMb) current = { memoryMb, engine: loadEngine(memoryMb) };
  return current.engine;
};
let nextCallId = 1;
/** @type {Map<number, { resolve: (r: SandboxFetchResponse) => void; reject: (e: Error) => void }>} */
const fetchCalls = new Map();

port.on("message", async (/** @type {ToWorker} */ message) => {
  if (message.type === "fetch-answer") {
    const call = fetchCalls.get(message.callId);
    fetchCalls.delete(message.callId);
    if (message.response) call?.resolve(message.response);
    else call?.reject(new Error(message.error ?? "no answer"));
    return;
  }
  const { id } = message;
  const requestFetch = (/** @type {import("./types").SandboxFetchRequest} */ request) =>
    /** @type {Promise<SandboxFetchResponse>} */ (
      new Promise((resolve, reject) => {
        const callId = nextCallId++;
        fetchCalls.set(callId, { resolve, reject });
        send({ type: "fetch", id, callId, request });
      })
    );
  const { outcome, retire, renew } = await runJob(await engineFor(message.limits.memoryMb), message, requestFetch);
  if (renew) current = undefined;
  send({ type: "done", id, outcome, retire });
});

send({ type: "ready" });
