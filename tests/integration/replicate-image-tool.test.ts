import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as credentialTest from "../../app/api/v1/credentials/[id]/test/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { systemCaller } from "../../dev/callers";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createReplicateStub, type ReplicateStub } from "../../dev/replicate-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { createChatflow } from "../../lib/services/chatflows";
import { createCredential } from "../../lib/services/credentials";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";

// A Tool Agent on the scripted model with Replicate's image generation as its tool, against a local
// server speaking Replicate's predictions API: the agent asks for an image, the tool creates a
// prediction (waiting, or polling when the model is slow) and hands back the image URL.
const TOKEN = "r8_stub_token_1";
let model: ModelStub;
let replicate: ReplicateStub;
let session: Record<string, string>;

beforeAll(async () => {
  model = await createModelStub();
  replicate = await createReplicateStub({ token: TOKEN });
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: `${new URL(model.url).host},${replicate.host}` });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(async () => {
  await model.close();
  await replicate.close();
});

const node = (id: string, type: string, inputs: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs },
});
const edge = (source: string, output: string, target: string, input: string) => ({
  id: `${source}-${target}`,
  source,
  sourceHandle: `${source}:out:${output}`,
  target,
  targetHandle: `${target}:in:${input}`,
});

async function agentFlow(token = TOKEN, inputs: Record<string, unknown> = {}) {
  const credential = (
    await createCredential(
      { name: "Replicate", type: "replicate", data: { apiKey: token, baseURL: replicate.url } },
      systemCaller,
    )
  ).id;
  const graph = {
    nodes: [
      node("chatModel", "chatOpenAICompatible", { baseURL: model.url, temperature: 0 }),
      node("images", "replicateImageTool", { credential, ...inputs }),
      node("agent", "toolAgent", { systemMessage: "You make pictures." }),
    ],
    edges: [edge("chatModel", "chatModel", "agent", "model"), edge("images", "tool", "agent", "tools")],
  } as Graph;
  const flow = await createChatflow({ name: "Image agent", graph }, systemCaller);
  return { id: flow.id, credential };
}

/** The brain: ask the tool for a picture, then answer with what it said (its images or its failure). */
function imageBrain() {
  model.setBrain((req) => {
    const result = req.messages.find((m) => m.role === "tool");
    if (!result) return { toolCalls: [{ name: "generate_image", arguments: { prompt: "a red bicycle by the sea" } }] };
    return { content: `Tool said: ${result.content}` };
  });
}

const ask = (id: string) =>
  call(prediction.POST, { method: "POST", params: { id }, headers: session, body: { question: "Draw a red bicycle" } });

describe("Replicate image generation tool", () => {
  it("creates a prediction with Prefer: wait and hands the agent the image URL", async () => {
    const { id } = await agentFlow(TOKEN, {
      model: "black-forest-labs/flux-schnell",
      additionalInputs: { aspect_ratio: "16:9" },
    });
    imageBrain();
    const before = replicate.requests.length;
    const res = await ask(id);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const made = [...replicate.predictions.values()].at(-1)!;
    expect(res.json.text).toBe(`Tool said: {"images":["${replicate.url}/files/${made.id}/out-0.png"]}`);
    expect(replicate.requests.slice(before)).toEqual([
      expect.objectContaining({
        method: "POST",
        path: "/v1/models/black-forest-labs/flux-schnell/predictions",
        authorization: `Bearer ${TOKEN}`,
        prefer: "wait=60",
        body: { input: { aspect_ratio: "16:9", prompt: "a red bicycle by the sea" } },
      }),
    ]);
  });

  it("a slow model: the tool reads the prediction again until it has succeeded; a pinned version goes to /v1/predictions", async () => {
    const version = "a".repeat(64);
    const { id } = await agentFlow(TOKEN, { model: `stability-ai/sdxl:${version}` });
    imageBrain();
    replicate.setPolls(1);
    const before = replicate.requests.length;
    try {
      const res = await ask(id);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(res.json.text).toMatch(
        /^Tool said: \{"images":\["http:\/\/127\.0\.0\.1:\d+\/files\/[0-9a-f]+\/out-0\.png"\]\}$/,
      );
      const made = replicate.requests.slice(before);
      expect(made.map((r) => `${r.method} ${r.path}`)).toEqual([
        "POST /v1/predictions",
        expect.stringMatching(/^GET \/v1\/predictions\/[0-9a-f]+$/),
        expect.stringMatching(/^GET \/v1\/predictions\/[0-9a-f]+$/),
      ]);
      expect(made[0].body).toMatchObject({ version });
    } finally {
      replicate.setPolls(0);
    }
  });

  it("a refusal fails the tool call naming Replicate (never the token), and the agent goes on", async () => {
    const { id } = await agentFlow();
    imageBrain();
    replicate.failNext(429, "Request was throttled.", "7");
    const res = await ask(id);
    expect(res.status).toBe(200);
    expect(res.json.text).toMatch(
      /Replicate \(black-forest-labs\/flux-schnell\) image generation failed: it is rate limiting this token \(HTTP 429\); retry after 7 s/,
    );
    const wrong = await agentFlow("r8_wrong_token");
    const refused = await ask(wrong.id);
    expect(refused.json.text).toMatch(/image generation failed: it refused the credential \(HTTP 401\)/);
    expect(refused.text).not.toContain("r8_wrong_token");
  });

  it("the credential Test reads the account with the token", async () => {
    const { credential } = await agentFlow();
    const res = await call(credentialTest.POST, { method: "POST", params: { id: credential }, headers: session });
    expect(res.json).toMatchObject({ ok: true, status: 200 });
    expect(replicate.requests.at(-1)).toMatchObject({
      method: "GET",
      path: "/v1/account",
      authorization: `Bearer ${TOKEN}`,
    });
  });
});
