import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createModelStub, type ModelStub } from "../dev/model-stub/server";
import { basicAuth, embeddedAppEnv, hasBuild, type RunningProcess, startApiProcess } from "../dev/processes";

// `npm start` serves POST /api/v1/prediction/<uuid> past Next's router (server/fast-routes.mjs), on
// Next's internals (docs/upgrading.md). Were they gone after an upgrade, Next would serve predictions
// just as well, only slower, and no other test would notice: this one fails. Through the built
// server: start-up names the path that serves predictions, and at exit the server says how many the
// fast route served, which must be exactly the predictions sent, not the request left to Next. No
// browser: plain HTTP. The suite's own app (playwright.config.ts) is not used.

const ADMIN = { email: "admin@fast-route-e2e.test", password: "fast-route-e2e-admin-pass" };
const basic = basicAuth(ADMIN);

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.describe("the prediction fast route of npm start", () => {
  // Skipped only in a direct run without a build: `npm test` builds before the browser tests.
  test.skip(!hasBuild(), "no build (.next/BUILD_ID): the fast route is loaded from the production build");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-fast-route-e2e-"));
  let stub: ModelStub | undefined;
  let app: (RunningProcess & { url: string }) | undefined;
  /** The lines the server printed about which path serves predictions. */
  const predictionLines = () =>
    app!
      .output()
      .split("\n")
      .filter((l) => l.includes("predictions:"));

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    stub = await createModelStub({ host: "127.0.0.1" });
    app = await startApiProcess(
      embeddedAppEnv({ dataDir, admin: ADMIN, model: stub, extra: { SHUTDOWN_GRACE_MS: "5000" } }),
    );
  });

  test.afterAll(async () => {
    if (app && app.child.exitCode === null) await app.kill();
    await stub?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("start-up says the fast route serves predictions", () => {
    // Were it unavailable, the one line would be "served by Next — fast route unavailable: <reason>".
    expect(predictionLines()).toEqual(["predictions: served past Next (fast route)"]);
  });

  test("predictions, JSON and streamed, are served by it; a request it leaves to Next is not counted", async () => {
    const flows = (await (await fetch(`${app!.url}/api/v1/chatflows`, { headers: basic })).json()) as {
      id: string;
      name: string;
    }[];
    const id = flows.find((f) => f.name === "Conversation")!.id;
    const predict = (target: string, body: object) =>
      fetch(`${app!.url}/api/v1/prediction/${target}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...basic },
        body: JSON.stringify(body),
      });

    const answer = await predict(id, { question: "Hello?" });
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(((await answer.json()) as { text: string }).text).toBeTruthy();
    const streamed = await predict(id, { question: "Hello again?", streaming: true });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get("content-type")).toContain("text/event-stream");
    expect(await streamed.text()).toContain(`"event":"end"`);
    // Not a UUID: the fast route leaves it to Next, whose route answers it.
    const toNext = await predict("not-a-uuid", { question: "Hello?" });
    expect(toNext.status).toBe(400);

    const exit = await app!.stop("SIGTERM");
    expect(exit.code).toBe(0);
    expect(predictionLines()).toEqual([
      "predictions: served past Next (fast route)",
      "predictions: 2 served past Next (fast route)",
    ]);
  });
});
