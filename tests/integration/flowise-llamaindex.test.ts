import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { auth, call } from "../support/http";

// Flowise's LlamaIndex chat engine flows, as its Simple Chat Engine template wires them (a LlamaIndex
// ChatOpenAI and a Redis-backed memory into the engine): imported onto our LangChain nodes, with a
// note per node of what it became, and run.
const FIXTURES = path.resolve(import.meta.dirname, "../../../shared/fixtures/flowise");
type FlowiseJson = {
  nodes: { id: string; data: { name: string; inputs: Record<string, unknown> } }[];
  edges: { source: string; target: string; sourceHandle: string; targetHandle: string }[];
};

/** The exported conversation flow rewired as a Simple Chat Engine with Redis-backed memory. */
function simpleChatEngineFlow(): FlowiseJson {
  const flow: FlowiseJson = JSON.parse(fs.readFileSync(path.join(FIXTURES, "conversation.json"), "utf8"));
  const rename = {
    chatOpenAI_0: "chatOpenAI_LlamaIndex",
    bufferMemory_0: "RedisBackedChatMemory",
    conversationChain_0: "simpleChatEngine",
  } as const;
  for (const n of flow.nodes) {
    const name = rename[n.id as keyof typeof rename];
    if (name === "chatOpenAI_LlamaIndex")
      n.data.inputs = { modelName: "gpt-4o-mini", temperature: 0.9, maxTokens: "", topP: "", timeout: "" };
    if (name === "RedisBackedChatMemory")
      n.data.inputs = { sessionId: "", sessionTTL: "3600", memoryKey: "chat_history", windowSize: "3" };
    if (name === "simpleChatEngine")
      n.data.inputs = {
        model: "{{chatOpenAI_0.data.instance}}",
        memory: "{{bufferMemory_0.data.instance}}",
        systemMessagePrompt: "You are a helpful assistant.",
      };
    n.data.name = name;
  }
  for (const e of flow.edges) {
    e.sourceHandle = e.sourceHandle
      .replace("-output-chatOpenAI-", "-output-chatOpenAI_LlamaIndex-")
      .replace("-output-bufferMemory-", "-output-RedisBackedChatMemory-");
  }
  return flow;
}

let stub: ModelStub;
let session: Record<string, string>;
beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, { OUTBOUND_ALLOW_HOSTS: new URL(stub.url).host });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => stub.close());

describe("Flowise LlamaIndex chat engines", () => {
  it("Simple Chat Engine with Redis-backed memory: imported onto a conversation chain, said so, remembers the session", async () => {
    const imported = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: "Simple chat engine", ...simpleChatEngineFlow() },
    });
    expect(imported.status, imported.text.slice(0, 500)).toBe(201);
    const graph = imported.json.graph as Graph;
    expect(Object.fromEntries(graph.nodes.map((n) => [n.id, n.type]))).toEqual({
      chatOpenAI_0: "chatOpenAICompatible",
      bufferMemory_0: "bufferMemory",
      conversationChain_0: "conversationChain",
    });
    expect(graph.nodes.find((n) => n.id === "bufferMemory_0")!.data.inputs.windowSize).toBe(6);
    const notes = (imported.json.warnings as { nodeId: string; message: string }[]).map((w) => [w.nodeId, w.message]);
    expect(notes).toEqual(
      expect.arrayContaining([
        [
          "chatOpenAI_0",
          expect.stringContaining('LlamaIndex node "ChatOpenAI" was imported as our OpenAI-compatible Chat Model'),
        ],
        ["conversationChain_0", expect.stringContaining('"Simple Chat Engine" was imported as our Conversation Chain')],
        ["bufferMemory_0", expect.stringContaining("sessionTTL")],
      ]),
    );

    graph.nodes.find((n) => n.id === "chatOpenAI_0")!.data.inputs.baseURL = stub.url;
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: imported.json.id },
      headers: session,
      body: { graph },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
    stub.setBrain((req) => ({ content: `seen ${req.messages.length} messages` }));
    const ask = (question: string) =>
      call(prediction.POST, {
        method: "POST",
        params: { id: imported.json.id },
        headers: session,
        body: { question, overrideConfig: { sessionId: "s-li" } },
      });
    expect((await ask("Hello")).json.text).toBe("seen 2 messages");
    // System, the first exchange, the new question.
    expect((await ask("Again")).json.text).toBe("seen 4 messages");
    expect(JSON.stringify(stub.requests.at(-1)?.body)).toContain("You are a helpful assistant.");
  });
});
