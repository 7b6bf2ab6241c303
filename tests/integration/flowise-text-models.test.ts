import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { resetEnvForTests } from "../../lib/env";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";

// Flowise's LLM Chain on its text models (Replicate, Hugging Face Inference), as an API-made Flowise
// record holds it (connections as {{id.data.instance}} values): imported, given a credential pointing at
// a local server that answers as Replicate's predictions API and Hugging Face's text-generation task do.
const seen: { path: string; auth?: string; prefer?: string; body: Record<string, unknown> }[] = [];
let server: http.Server;
let base: string;
let polls = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const body = raw ? JSON.parse(raw) : {};
      const path = new URL(req.url ?? "/", "http://x").pathname;
      seen.push({ path, auth: req.headers.authorization, prefer: req.headers.prefer as string, body });
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (req.headers.authorization !== "Bearer tok-1") return json(401, { detail: "Unauthenticated" });
      if (path === "/v1/models/meta/meta-llama-3-8b-instruct/predictions") {
        // Replicate answers within the wait: the output as a list of pieces.
        return json(201, { id: "p1", status: "succeeded", output: ["Par", "is."] });
      }
      if (path === "/v1/predictions") {
        // A pinned version still running after the wait: followed through urls.get.
        return json(201, { id: "p2", status: "processing", urls: { get: `${base}/v1/predictions/p2` } });
      }
      if (path === "/v1/predictions/p2") {
        polls += 1;
        return json(
          200,
          polls < 2
            ? { id: "p2", status: "processing", urls: { get: `${base}/v1/predictions/p2` } }
            : { id: "p2", status: "succeeded", output: "Rome." },
        );
      }
      if (path === "/hf-inference/models/mistralai/Mistral-7B-Instruct-v0.3")
        return json(200, [{ generated_text: " Berlin." }]);
      if (path === "/broken") return json(503, { error: "Model is loading" });
      json(404, { detail: "Not found" });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: new URL(base).host });
  resetEnvForTests();
  session = await auth.session(
    (await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" })).id,
  );
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
let session: Record<string, string>;

/** An LLM Chain (prompt template + a Flowise text model) as Flowise's API stores it. */
function llmChainOn(model: { name: string; inputs: Record<string, unknown> }) {
  return {
    nodes: [
      {
        id: "llm_0",
        position: { x: 0, y: 0 },
        data: { name: model.name, label: model.name, inputs: { cache: "", ...model.inputs } },
      },
      {
        id: "promptTemplate_0",
        position: { x: 0, y: 200 },
        data: {
          name: "promptTemplate",
          label: "Prompt",
          inputs: { template: "Capital of {country}? Answer:", promptValues: '{"country":"{{question}}"}' },
        },
      },
      {
        id: "llmChain_0",
        position: { x: 300, y: 100 },
        data: {
          name: "llmChain",
          label: "LLM Chain",
          inputs: {
            model: "{{llm_0.data.instance}}",
            prompt: "{{promptTemplate_0.data.instance}}",
            outputParser: "",
            chainName: "",
            inputModeration: "",
          },
        },
      },
    ],
    edges: [],
  };
}

async function importAndAsk(flow: object, credentialType: string, question: string, baseURL = base) {
  const imported = await call(importRoute.POST, {
    method: "POST",
    headers: session,
    body: { name: "Text model", ...flow },
  });
  expect(imported.status, imported.text.slice(0, 500)).toBe(201);
  const cred = await call(credentials.POST, {
    method: "POST",
    headers: session,
    body: { name: `${credentialType} token`, type: credentialType, data: { apiKey: "tok-1", baseURL } },
  });
  expect(cred.status, cred.text).toBe(201);
  const graph = imported.json.graph as Graph;
  graph.nodes.find((n) => n.id === "llm_0")!.data.inputs.credential = cred.json.id;
  const saved = await call(chatflowById.PUT, {
    method: "PUT",
    params: { id: imported.json.id },
    headers: session,
    body: { graph },
  });
  expect(saved.status, saved.text.slice(0, 300)).toBe(200);
  return call(prediction.POST, {
    method: "POST",
    params: { id: imported.json.id },
    headers: session,
    body: { question },
  });
}

describe("Flowise text models in an LLM Chain", () => {
  it("Replicate: the prompt as input with Prefer: wait, the output's pieces joined", async () => {
    seen.length = 0;
    const res = await importAndAsk(
      llmChainOn({
        name: "replicate",
        inputs: {
          model: "meta/meta-llama-3-8b-instruct",
          temperature: 0.5,
          maxTokens: "64",
          topP: "",
          repetitionPenalty: "",
          additionalInputs: '{"system_prompt":"Be brief."}',
        },
      }),
      "replicate",
      "France",
    );
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe("Paris.");
    expect(seen[0]).toMatchObject({
      path: "/v1/models/meta/meta-llama-3-8b-instruct/predictions",
      auth: "Bearer tok-1",
      prefer: "wait",
    });
    expect(seen[0].body).toEqual({
      input: {
        system_prompt: "Be brief.",
        prompt: "Capital of France? Answer:",
        temperature: 0.5,
        max_new_tokens: 64,
        max_tokens: 64,
      },
    });
  });

  it("Replicate: a pinned version still running is followed until it succeeds", async () => {
    const version = "a".repeat(64);
    const res = await importAndAsk(
      llmChainOn({ name: "replicate", inputs: { model: `meta/llama-2-70b-chat:${version}`, temperature: 0.7 } }),
      "replicate",
      "Italy",
    );
    expect(res.json.text).toBe("Rome.");
    expect(seen.find((s) => s.path === "/v1/predictions")?.body).toMatchObject({ version });
  });

  it("Hugging Face Inference: the text-generation task without the prompt echoed", async () => {
    seen.length = 0;
    const res = await importAndAsk(
      llmChainOn({
        name: "huggingFaceInference_LLMs",
        inputs: {
          model: "mistralai/Mistral-7B-Instruct-v0.3",
          endpoint: "",
          temperature: 0.2,
          maxTokens: "50",
          topP: "",
          hfTopK: "",
          frequencyPenalty: "",
        },
      }),
      "huggingFace",
      "Germany",
    );
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe(" Berlin.");
    expect(seen[0].body).toEqual({
      inputs: "Capital of Germany? Answer:",
      parameters: { temperature: 0.2, return_full_text: false, max_new_tokens: 50 },
    });
  });

  it("a provider's failure is a 502/503 naming it; a refused token never shows", async () => {
    const res = await importAndAsk(
      llmChainOn({ name: "huggingFaceInference_LLMs", inputs: { endpoint: `${base}/broken`, temperature: 0.2 } }),
      "huggingFace",
      "Spain",
    );
    expect([502, 503]).toContain(res.status);
    expect(res.json.error.message).toMatch(/503/);
  });
});
