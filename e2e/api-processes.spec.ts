import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createModelStub, type ModelStub } from "../dev/model-stub/server";
import { hasBuild, type RunningProcess, startApiProcess } from "../dev/processes";
import { freePort, startRedisServer, stopRedisServer } from "../dev/redis-server";

// `API_PROCESSES=2 npm start` on the embedded database (issue 15: both cores): a primary owning the
// database's thread and two API processes sharing the port and the database's socket, caches kept
// right across them through a private redis-server. No browser: plain HTTP. The suite's own app
// (playwright.config.ts) is not used.

const ADMIN = { email: "admin@cluster-e2e.test", password: "cluster-e2e-admin-pass" };
const basic = { authorization: `Basic ${Buffer.from(`${ADMIN.email}:${ADMIN.password}`).toString("base64")}` };

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.describe("API_PROCESSES=2 on the embedded database", () => {
  // Skipped only in a direct run without a build: `npm test` builds before the browser tests.
  test.skip(!hasBuild(), "no build (.next/BUILD_ID): the API processes serve the production build");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-cluster-e2e-"));
  let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  let stub: ModelStub | undefined;
  let app: (RunningProcess & { url: string }) | undefined;
  let env: Record<string, string>;

  /** The pids of the API processes that logged a request line for `urlPath`. */
  const servedBy = (urlPath: string) =>
    new Set(
      app!
        .output()
        .split("\n")
        .filter((l) => l.includes('"msg":"request"') && l.includes(`"path":"${urlPath}"`))
        .map((l) => /"pid":(\d+)/.exec(l)?.[1]),
    );

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    const redisPort = await freePort();
    redis = await startRedisServer(redisPort);
    stub = await createModelStub({ host: "127.0.0.1" });
    env = {
      API_PROCESSES: "2",
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      DATABASE_URL: `pglite:${dataDir}/pglite`,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOAD_EXAMPLE_FLOWS: "true",
      OPENAI_API_KEY: "stub-key",
      OPENAI_BASE_URL: stub.url,
      OPENAI_MODEL: "stub-model",
      OUTBOUND_ALLOW_HOSTS: `127.0.0.1:${stub.port}`,
      SHUTDOWN_GRACE_MS: "5000",
      LOG_LEVEL: "info",
    };
    app = await startApiProcess(env);
    // The first API process answers first; the second starts once it listens.
    await expect.poll(() => app!.output().split("Switchyard is running at").length - 1, { timeout: 90_000 }).toBe(2);
  });

  test.afterAll(async () => {
    if (app && app.child.exitCode === null) await app.kill();
    await Promise.all([stub?.close(), redis && stopRedisServer(redis)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("two API processes answer on one port, and a change made through one is run by both", async () => {
    const flows = (await (await fetch(`${app!.url}/api/v1/chatflows`, { headers: basic })).json()) as {
      id: string;
      name: string;
    }[];
    const id = flows.find((f) => f.name === "Conversation")!.id;
    // Each prediction on a connection of its own: the primary hands each new connection to the next
    // API process in turn, while fetch would keep one connection open, i.e. one process, for all.
    const predict = async (question: string) => {
      const res = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          `${app!.url}/api/v1/prediction/${id}`,
          { method: "POST", agent: false, headers: { "content-type": "application/json", ...basic } },
          (r) => {
            let text = "";
            r.setEncoding("utf8");
            r.on("data", (d) => (text += d));
            r.on("end", () => resolve({ status: r.statusCode ?? 0, text }));
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify({ question }));
      });
      expect(res.status, res.text).toBe(200);
    };
    // Both processes build and cache the flow.
    for (let i = 0; i < 6; i++) await predict(`warm ${i}`);
    await expect.poll(() => servedBy(`/api/v1/prediction/${id}`).size).toBe(2);

    // A new system message, saved through whichever process takes the request…
    const flow = await (await fetch(`${app!.url}/api/v1/chatflows/${id}`, { headers: basic })).json();
    const graph = flow.graph as { nodes: { id: string; data: { inputs: Record<string, unknown> } }[] };
    graph.nodes.find((n) => n.id === "conversation")!.data.inputs.systemMessage = "You answer as the cluster marker.";
    const saved = await fetch(`${app!.url}/api/v1/chatflows/${id}`, {
      method: "PUT",
      headers: { "content-type": "application/json", ...basic },
      body: JSON.stringify({ graph }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);

    // …is what every later prediction sends the model, whichever process runs it (caches were told).
    stub!.requests.length = 0;
    for (let i = 0; i < 6; i++) await predict(`after ${i}`);
    const systems = stub!.requests.map((r) => JSON.stringify((r.body as { messages: unknown[] }).messages[0]));
    expect(systems).toHaveLength(6);
    for (const s of systems) expect(s).toContain("You answer as the cluster marker.");
  });

  test("SIGTERM stops both API processes and the primary with exit code 0", async () => {
    const exit = await app!.stop("SIGTERM");
    expect(exit.code).toBe(0);
    expect(app!.output()).toContain("SIGTERM: stopping 2 API process(es).");
    // The workers are gone too: nothing listens on the port.
    await expect(fetch(`${app!.url}/api/v1/ping`)).rejects.toThrow();
  });

  test("refuses to start without Redis, in one line naming the setting", async () => {
    const child = spawn(process.execPath, ["server/start.mjs", "--no-build"], {
      env: { ...process.env, ...env, REDIS_URL: "", PORT: String(await freePort()) },
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const code = await new Promise((r) => child.on("exit", r));
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      "[switchyard] cannot start: API_PROCESSES above 1 needs REDIS_URL: the processes share cache invalidations and rate limits through Redis",
    );
  });
});
