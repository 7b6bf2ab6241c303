import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createModelStub, scriptedBrain, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";

// Flowise's marketplace Conversational Agent (calculator, buffer memory, SerpAPI, ChatOpenAI) as it
// ships: imported, its model pointed at the scripted model and its SerpAPI key at a local server that
// answers as serpapi.com does; the agent searches, then answers from the results.
const FIXTURES = path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise/marketplace");
const template = () => JSON.parse(fs.readFileSync(path.join(FIXTURES, "Conversational_Agent.json"), "utf8"));

let stub: ModelStub;
let serp: http.Server;
let serpUrl: string;
const serpCalls: URLSearchParams[] = [];
let session: Record<string, string>;

beforeAll(async () => {
  stub = await createModelStub();
  serp = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    serpCalls.push(url.searchParams);
    if (url.pathname !== "/search.json" || url.searchParams.get("api_key") !== "serp-key-1") {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"Invalid API key."}');
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        organic_results: [
          { title: "Weather in Berlin", link: "https://weather.example/berlin", snippet: "Sunny, 21 °C today." },
        ],
      }),
    );
  });
  await new Promise<void>((r) => serp.listen(0, "127.0.0.1", r));
  serpUrl = `http://127.0.0.1:${(serp.address() as AddressInfo).port}`;
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: `${new URL(stub.url).host},${new URL(serpUrl).host}` });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(async () => {
  await stub.close();
  await new Promise<void>((r) => serp.close(() => r()));
});

describe("marketplace Conversational Agent with its SerpAPI tool", () => {
  it("imports as it ships and answers from a web search", async () => {
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: "Conversational Agent", ...template() },
    });
    expect(imported.status, imported.text.slice(0, 400)).toBe(201);
    const graph = imported.json.graph as Graph;
    const serpNode = graph.nodes.find((n) => n.id === "serpAPI_0")!;
    expect(serpNode.type).toBe("serpAPI");

    const cred = await call(credentials.POST, {
      method: "POST",
      headers: session,
      body: { name: "SerpAPI", type: "serpApi", data: { apiKey: "serp-key-1", baseURL: serpUrl } },
    });
    expect(cred.status, cred.text).toBe(201);
    serpNode.data.inputs.credential = cred.json.id;
    graph.nodes.find((n) => n.id === "chatOpenAI_0")!.data.inputs.baseURL = stub.url;
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);

    stub.setBrain(
      scriptedBrain([
        { content: '```json\n{"action": "search", "action_input": "weather in Berlin today"}\n```' },
        { content: '```json\n{"action": "Final Answer", "action_input": "Sunny and 21 °C in Berlin."}\n```' },
      ]),
    );
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id: imported.json.id },
      headers: session,
      body: { question: "What is the weather in Berlin?" },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.text).toBe("Sunny and 21 °C in Berlin.");
    expect(serpCalls.at(-1)?.get("q")).toBe("weather in Berlin today");
    expect(res.json.usedTools).toEqual([
      expect.objectContaining({ tool: "search", toolOutput: expect.stringContaining("Sunny, 21 °C today.") }),
    ]);
    // The agent read the results: they were in what the model saw next.
    expect(JSON.stringify(stub.requests.at(-1)?.body)).toContain("Weather in Berlin");
    expect(res.text).not.toContain("serp-key-1");
  });
});
