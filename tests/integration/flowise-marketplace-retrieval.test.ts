// Flowise marketplace templates of issue 34 that answer from documents: the Conversational Retrieval
// QA Chain (a text file and a document store into one vector store), the Query Engine and the
// SubQuestion Query Engine (LlamaIndex, onto our own engines). Each goes through the real import
// route, is repointed at local servers (the scripted model, a local Pinecone) as a builder would in
// the studio, upserted where it has loaders, and asked through the prediction route. These templates
// are only in the flowise@3.1.4 npm package: without it unpacked (docs/testing.md) they are skipped.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { fixtureKey, userCaller } from "../../dev/callers";
import { textOf } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { resetEnvForTests } from "../../lib/env";
import { createDocumentStore, upsertDocumentStore } from "../../lib/services/document-stores";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { hasNpmMarketplace, npmTemplate } from "../support/flowise-marketplace";
import { auth, call } from "../support/http";

let model: ModelStub;
let session: Record<string, string>;
let admin: Awaited<ReturnType<typeof setupFirstAdmin>>;
let upsertKey: string;

beforeAll(async () => {
  model = await createModelStub();
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: model.url,
    OPENAI_MODEL: "stub-model",
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
    OUTBOUND_ALLOW_HOSTS: new URL(model.url).host,
  });
  resetEnvForTests();
  admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  upsertKey = await fixtureKey("upsert", ["upsert"]);
});
afterAll(() => model.close());

const importTemplate = (body: object) => call(importRoute.POST, { method: "POST", headers: session, body });
const save = (id: string, graph: Graph) =>
  call(chatflowById.PUT, { method: "PUT", params: { id }, headers: session, body: { graph } });
const predict = (id: string, question: string) =>
  call(prediction.POST, { method: "POST", params: { id }, headers: session, body: { question } });
const node = (id: string, type: string, inputs: Record<string, unknown> = {}) => ({
  id,
  type,
  position: { x: 0, y: 0 },
  data: { inputs },
});

/** A document store of one text, embedded on the scripted model, upserted: its id. */
async function upsertedStore(text: string): Promise<string> {
  const caller = userCaller({ id: admin.id, email: admin.email, name: admin.name, role: "admin" });
  const store = await createDocumentStore(
    {
      name: "Office facts",
      graph: {
        nodes: [
          node("text", "plainTextLoader", { text, sourceName: "office-facts" }),
          node("embeddings", "openAIEmbeddings", { baseURL: model.url }),
          node("store", "pgvectorStore", { topK: 4 }),
        ],
        edges: [
          {
            id: "e1",
            source: "text",
            sourceHandle: "text:out:document",
            target: "store",
            targetHandle: "store:in:document",
          },
          {
            id: "e2",
            source: "embeddings",
            sourceHandle: "embeddings:out:embeddings",
            target: "store",
            targetHandle: "store:in:embeddings",
          },
        ],
      } as never,
    },
    caller,
  );
  expect((await upsertDocumentStore(store.id, caller)).numAdded).toBe(1);
  return store.id;
}

describe.skipIf(!hasNpmMarketplace)("marketplace Conversational Retrieval QA Chain (needs the npm package)", () => {
  const TEMPLATE = "Conversational Retrieval QA Chain";
  const withStore = (selectedStore: string) => {
    const flow = npmTemplate(TEMPLATE);
    flow.nodes.find((n: { id: string }) => n.id === "documentStore_0").data.inputs.selectedStore = selectedStore;
    return flow;
  };
  const storeWarnings = (res: { json: { warnings: { nodeId: string; message: string }[] } }) =>
    res.json.warnings.filter((w) => w.nodeId === "documentStore_0");

  /** Mistral through a credential on the scripted model, the embeddings there too, the text file given a text. */
  async function repoint(id: string, g: Graph, fileText: string) {
    const mistral = await call(credentials.POST, {
      method: "POST",
      headers: session,
      body: { name: "Mistral", type: "mistralAI", data: { apiKey: "mistral-key", baseURL: model.url } },
    });
    for (const n of g.nodes) {
      if (n.type === "chatMistralAI") n.data.inputs.credential = mistral.json.id;
      if (n.type === "openAIEmbeddings") n.data.inputs.baseURL = model.url;
      if (n.type === "textFileLoader") n.data.inputs.file = fileText;
    }
    expect((await save(id, g)).status).toBe(200);
  }

  it("imports as it ships, the Document Store node asking for a store to be picked", async () => {
    const res = await importTemplate({ name: TEMPLATE, ...npmTemplate(TEMPLATE) });
    expect(res.status, res.text.slice(0, 600)).toBe(201);
    const g = res.json.graph as Graph;
    expect(Object.fromEntries(g.nodes.map((n) => [n.id, n.type]))).toMatchObject({
      documentStore_0: "documentStoreLoader",
      faiss_0: "pgvectorStore",
      chatMistralAI_0: "chatMistralAI",
      conversationalRetrievalQAChain_0: "conversationalRetrievalQAChain",
    });
    expect(storeWarnings(res)).toEqual([
      expect.objectContaining({
        input: "selectedStore",
        message: expect.stringMatching(/No document store was selected/),
      }),
    ]);
  });

  it("a store id that names no store here is cleared, and the warning names it", async () => {
    const missing = randomUUID();
    const res = await importTemplate({ name: TEMPLATE, ...withStore(missing) });
    expect(res.status, res.text.slice(0, 600)).toBe(201);
    expect(storeWarnings(res)).toEqual([expect.objectContaining({ message: expect.stringContaining(missing) })]);
    const loader = (res.json.graph as Graph).nodes.find((n) => n.id === "documentStore_0")!;
    expect(loader.data.inputs.storeId).toBeUndefined();
  });

  it("with a local store: upserts the text file and the store's chunks into one index, and answers from both", async () => {
    const storeId = await upsertedStore("The Leeds office opens at eight.");
    const res = await importTemplate({ name: TEMPLATE, ...withStore(storeId) });
    expect(res.status, res.text.slice(0, 600)).toBe(201);
    expect(storeWarnings(res)).toEqual([]);
    const g = res.json.graph as Graph;
    expect(g.nodes.find((n) => n.id === "documentStore_0")!.data.inputs).toEqual({ storeId });
    await repoint(res.json.id, g, "Lunch in the Leeds office is at noon.");

    const up = await call(upsert.POST, {
      method: "POST",
      params: { id: res.json.id },
      headers: auth.bearer(upsertKey),
      body: {},
    });
    expect(up.status, up.text.slice(0, 400)).toBe(200);
    expect(up.json).toMatchObject({ numAdded: 2, numSkipped: 0 });

    model.setBrain(({ messages }) => {
      const all = messages.map((m) => textOf(m.content)).join("\n");
      return { content: all.includes("opens at eight") && all.includes("noon") ? "Eight, lunch at noon." : "?" };
    });
    const answer = await predict(res.json.id, "When does the Leeds office open?");
    expect(answer.status, answer.text.slice(0, 400)).toBe(200);
    expect(answer.json.text).toBe("Eight, lunch at noon.");
  });

  it("a store that holds nothing yet refuses the upsert, naming it", async () => {
    const caller = userCaller({ id: admin.id, email: admin.email, name: admin.name, role: "admin" });
    const empty = await createDocumentStore(
      {
        name: "Never upserted",
        graph: {
          nodes: [node("text", "plainTextLoader", { text: "x" }), node("store", "keywordStore")],
          edges: [
            {
              id: "e1",
              source: "text",
              sourceHandle: "text:out:document",
              target: "store",
              targetHandle: "store:in:document",
            },
          ],
        } as never,
      },
      caller,
    );
    const res = await importTemplate({ name: TEMPLATE, ...withStore(empty.id) });
    await repoint(res.json.id, res.json.graph as Graph, "Lunch is at noon.");
    const up = await call(upsert.POST, {
      method: "POST",
      params: { id: res.json.id },
      headers: auth.bearer(upsertKey),
      body: {},
    });
    expect(up.status).toBe(422);
    expect(up.json.error.message).toContain('document store "Never upserted"');
  });
});
