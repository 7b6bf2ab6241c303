import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { exampleFlow } from "../../dev/flows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { textOf } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { parseSse } from "../../dev/route-server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow, updateChatflow } from "../../lib/services/chatflows";
import { publishVersion } from "../../lib/services/chatflow-versions";
import { auth } from "../support/http";
import { type SpawnedWorker, spawnWorker } from "./support";

// Queue mode runs the published version: the API process picks the version, the job carries it
// and the worker builds that one, also while a newer draft exists.

let model: ModelStub;
let worker: SpawnedWorker | undefined;
let flowId: string;
let predictKey: string;
let managerKey: string;

/** The conversation example with another system message. */
function graphWith(systemMessage: string) {
  const graph = structuredClone(exampleFlow("conversation.json").graph) as {
    nodes: { id: string; data: { inputs: Record<string, unknown> } }[];
  };
  graph.nodes.find((n) => n.id === "conversation")!.data.inputs.systemMessage = systemMessage;
  return graph as never;
}

beforeAll(async () => {
  // The model answers with the system message it was given: which version ran shows in the answer.
  model = await createModelStub({
    brain: (req) => ({ content: `system: ${textOf(req.messages.find((m) => m.role === "system")?.content ?? "")}` }),
  });
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: model.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  flowId = (await createChatflow({ name: "versions", graph: graphWith("Published persona.") }, systemCaller)).id;
  await publishVersion(flowId, 1, systemCaller);
  await updateChatflow(flowId, { graph: graphWith("Draft persona.") }, systemCaller);
  const owner = await fixtureKeyOwner();
  predictKey = (await createApiKey({ name: "predict", permissions: ["predict"], chatflowIds: [] }, owner)).key;
  managerKey = (await createApiKey({ name: "mgr", permissions: ["predict", "chatflows"], chatflowIds: [] }, owner)).key;
  worker = await spawnWorker();
});
afterAll(async () => {
  worker?.child.kill("SIGTERM");
  await worker?.exited;
  await model.close();
});

const predict = (key: string, body: object, query = "") =>
  prediction.POST(
    new Request(`http://127.0.0.1:3000/api/v1/prediction/${flowId}${query}`, {
      method: "POST",
      headers: { ...auth.bearer(key), "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: flowId }) },
  );

describe("queue mode and versions", () => {
  it("a worker answers with the published version while a newer draft exists (JSON and stream)", async () => {
    const res = await predict(predictKey, { question: "who are you?", chatId: "q-published" });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-chatflow-version")).toBe("1");
    const body = await res.json();
    expect(body.text).toBe("system: Published persona.");
    expect(body.chatflowVersion).toBe(1);
    const stored = await (await getDb()).chatMessage.findFirst({
      where: { chatflowId: flowId, chatId: "q-published", role: "apiMessage" },
    });
    expect(stored?.chatflowVersion).toBe(1);

    const stream = await predict(predictKey, { question: "again?", streaming: true });
    expect(stream.headers.get("x-chatflow-version")).toBe("1");
    const events = parseSse(await stream.text());
    expect(events.find((e) => e.event === "metadata")?.data).toMatchObject({ chatflowVersion: 1 });
    expect(
      events
        .filter((e) => e.event === "token")
        .map((e) => e.data)
        .join(""),
    ).toBe("system: Published persona.");
  });

  it("a manager's ?version=draft runs the draft on the worker; a predict-only key is refused", async () => {
    const res = await predict(managerKey, { question: "who are you?" }, "?version=draft");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-chatflow-version")).toBe("2");
    expect((await res.json()).text).toBe("system: Draft persona.");
    expect((await predict(predictKey, { question: "x" }, "?version=2")).status).toBe(403);
  });

  it("publishing the draft moves the worker's answers to it", async () => {
    await publishVersion(flowId, 2, systemCaller);
    const res = await predict(predictKey, { question: "and now?" });
    expect(res.headers.get("x-chatflow-version")).toBe("2");
    expect((await res.json()).text).toBe("system: Draft persona.");
  });
});
