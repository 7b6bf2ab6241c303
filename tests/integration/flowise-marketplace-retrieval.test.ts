// Flowise marketplace templates of issue 34 that answer from documents: the Conversational Retrieval
// QA Chain (a text file and a document store into one vector store), the Query Engine and the
// SubQuestion Query Engine (LlamaIndex, onto our own engines). Each goes through the real import
// route, is repointed at local servers (the scripted model, a local Pinecone) as a builder would in
// the studio, upserted where it has loaders, and asked through the prediction route. These templates
// are only in the flowise@3.1.4 npm package: without it unpacked (docs/testing.md) they are skipped.
import { randomUUID } from "node:crypto";
import { Pinecone } from "@pinecone-database/pinecone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { fixtureKey, userCaller } from "../../dev/callers";
import { type ChatMessage, textOf } from "../../dev/model-stub/brain";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { createPineconeStub, type PineconeStub } from "../../dev/pinecone-stub/server";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createDocumentStore, upsertDocumentStore } from "../../lib/services/document-stores";
import { setupFirstAdmin } from "../../lib/services/users";
import type { Graph } from "@/common/schemas/graph";
import { hasNpmMarketplace, npmTemplate } from "../support/flowise-marketplace";
import { auth, call } from "../support/http";

/** Embedded PGlite ships pgvector; a PostgreSQL server may not (Faiss imports as our pgvector store). */
async function databaseHasPgvector(): Promise<boolean> {
  if (!process.env.DATABASE_URL?.startsWith("postgres")) return true;
  const rows = await (await getDb()).$queryRawUnsafe<unknown[]>(
    "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
  );
  return rows.length > 0;
}
const hasPgvector = await databaseHasPgvector();

const DIMS = 64;
let model: ModelStub;
let pinecone: PineconeStub;
let session: Record<string, string>;
let admin: Awaited<ReturnType<typeof setupFirstAdmin>>;
let upsertKey: string;

beforeAll(async () => {
  model = await createModelStub({ embeddingDimensions: DIMS });
  pinecone = await createPineconeStub({ apiKey: "pc-key", indexes: { docs: DIMS } });
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: model.url,
    OPENAI_MODEL: "stub-model",
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
    OUTBOUND_ALLOW_HOSTS: `${new URL(model.url).host},${new URL(pinecone.url).host}`,
  });
  resetEnvForTests();
  admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
  upsertKey = await fixtureKey("upsert", ["upsert"]);
});
afterAll(() => Promise.all([model.close(), pinecone.close()]));

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

  it.skipIf(!hasPgvector)(
    "with a local store: upserts the text file and the store's chunks into one index, and answers from both",
    async () => {
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
    },
  );

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

/** Writes records into the local Pinecone as another tool would (text under "text"), embedded on the scripted model. */
async function fillPinecone(namespace: string, records: { id: string; text: string; source: string }[]) {
  const res = await fetch(`${model.url}/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer test-key" },
    body: JSON.stringify({ model: "stub-embedding", input: records.map((r) => r.text), encoding_format: "float" }),
  });
  const vectors = ((await res.json()) as { data: { embedding: number[] }[] }).data.map((d) => d.embedding);
  const index = new Pinecone({ apiKey: "pc-key", controllerHostUrl: pinecone.url }).index({
    host: pinecone.url,
    namespace,
  });
  await index.upsert({
    records: records.map((r, i) => ({ id: r.id, values: vectors[i], metadata: { source: r.source, text: r.text } })),
  });
}

/** The text of every message of each model call made since `before`, one string per call. */
const promptsSince = (before: number) =>
  model.requests
    .slice(before)
    .filter((r) => !r.path.endsWith("/embeddings"))
    .map((r) => ((r.body as { messages?: ChatMessage[] }).messages ?? []).map((m) => textOf(m.content)).join("\n"));

/** The Pinecone nodes on the local index (a credential, the index name, a namespace). */
async function pineconeInputs(namespace?: string) {
  const cred = await call(credentials.POST, {
    method: "POST",
    headers: session,
    body: { name: "Pinecone", type: "pinecone", data: { apiKey: "pc-key", baseURL: pinecone.url } },
  });
  return { credential: cred.json.id, indexName: "docs", ...(namespace ? { namespace } : {}) };
}

describe.skipIf(!hasNpmMarketplace)("marketplace Query Engine (LlamaIndex; needs the npm package)", () => {
  it("imports onto our query engine with the store's model, and answers from Pinecone through its compact-and-refine prompt", async () => {
    const res = await importTemplate({ name: "Query Engine", ...npmTemplate("Query Engine") });
    expect(res.status, res.text.slice(0, 600)).toBe(201);
    const g = res.json.graph as Graph;
    expect(Object.fromEntries(g.nodes.map((n) => [n.id, n.type]))).toEqual({
      queryEngine_0: "queryEngine",
      pineconeLlamaIndex_0: "pineconeStore",
      openAIEmbedding_LlamaIndex_0: "openAIEmbeddings",
      compactrefineLlamaIndex_0: "compactRefineSynthesizer",
      chatAnthropic_LlamaIndex_0: "chatAnthropic",
    });
    // Flowise's engine answers with the model given to its store: ours takes it directly.
    expect(g.edges.map((e) => `${e.sourceHandle} ${e.targetHandle}`)).toContain(
      "chatAnthropic_LlamaIndex_0:out:chatModel queryEngine_0:in:model",
    );
    expect(JSON.stringify(res.json.warnings)).toContain("was imported as our Query Engine");

    await fillPinecone("qe", [
      { id: "a", text: "The Leeds office opens at eight.", source: "office" },
      { id: "b", text: "Parking is free on Sundays.", source: "office" },
    ]);
    const claude = await call(credentials.POST, {
      method: "POST",
      headers: session,
      body: { name: "Claude", type: "anthropic", data: { apiKey: "k", baseURL: model.origin } },
    });
    const store = await pineconeInputs("qe");
    for (const n of g.nodes) {
      if (n.type === "pineconeStore") Object.assign(n.data.inputs, store);
      if (n.type === "openAIEmbeddings") n.data.inputs.baseURL = model.url;
      if (n.type === "chatAnthropic") n.data.inputs.credential = claude.json.id;
    }
    expect((await save(res.json.id, g)).status).toBe(200);

    model.setBrain(({ messages }) => ({
      content: messages
        .map((m) => textOf(m.content))
        .join("\n")
        .includes("opens at eight")
        ? "At eight."
        : "?",
    }));
    const before = model.requests.length;
    const answer = await predict(res.json.id, "When does the Leeds office open?");
    expect(answer.status, answer.text.slice(0, 400)).toBe(200);
    expect(answer.json.text).toBe("At eight.");
    expect(answer.json.sourceDocuments.map((d: { pageContent: string }) => d.pageContent).sort()).toEqual([
      "Parking is free on Sundays.",
      "The Leeds office opens at eight.",
    ]);
    // Both chunks fit one prompt: one call, the template's own text QA prompt, on the Anthropic wire.
    const calls = model.requests.slice(before).filter((r) => !r.path.endsWith("/embeddings"));
    expect(calls.map((r) => r.path)).toEqual(["/v1/messages"]);
    const [prompt] = promptsSince(before);
    expect(prompt).toMatch(/^Context information:\n<context>\n/);
    expect(prompt).toContain("Query: When does the Leeds office open?");
  });
});

describe.skipIf(!hasNpmMarketplace)("marketplace SubQuestion Query Engine (LlamaIndex; needs the npm package)", () => {
  let id: string;
  const APPLE = "Apple revenue 2022 was 394 billion dollars.";
  const TESLA = "Tesla revenue 2022 was 81 billion dollars.";

  beforeAll(async () => {
    const res = await importTemplate({ name: "SubQuestion", ...npmTemplate("SubQuestion Query Engine") });
    expect(res.status, res.text.slice(0, 600)).toBe(201);
    id = res.json.id;
    const g = res.json.graph as Graph;
    expect(
      g.nodes
        .filter((n) => n.type === "queryEngineTool")
        .map((n) => n.data.inputs.toolName)
        .sort(),
    ).toEqual(["apple_tool", "tesla_tool"]);
    const store = await pineconeInputs();
    for (const n of g.nodes) {
      if (n.type === "pineconeStore") Object.assign(n.data.inputs, store);
      if (n.type === "openAIEmbeddings" || n.type === "chatOpenAICompatible") n.data.inputs.baseURL = model.url;
    }
    expect((await save(id, g)).status).toBe(200);
    await fillPinecone("pinecone-form10k", [
      { id: "apple-1", text: APPLE, source: "apple" },
      { id: "tesla-1", text: TESLA, source: "tesla" },
    ]);
  });

  it("asks the model for sub-questions, queries each tool's engine on its own documents, then synthesises", async () => {
    model.setBrain(({ messages }) => {
      const text = messages.map((m) => textOf(m.content)).join("\n");
      if (text.includes("Break the user question below into sub-questions"))
        return {
          content: JSON.stringify({
            items: [
              { sub_question: "What was Apple's revenue in 2022?", tool_name: "apple_tool" },
              { sub_question: "What was Tesla's revenue in 2022?", tool_name: "tesla_tool" },
            ],
          }),
        };
      if (text.includes("Sub question:"))
        return {
          content:
            text.includes("Response: Apple made 394 billion.") && text.includes("Response: Tesla made 81 billion.")
              ? "Apple made 394 billion, Tesla 81 billion."
              : "?",
        };
      if (text.includes(APPLE)) return { content: "Apple made 394 billion." };
      if (text.includes(TESLA)) return { content: "Tesla made 81 billion." };
      return { content: "?" };
    });
    const before = model.requests.length;
    const res = await predict(id, "Compare Apple's and Tesla's revenue in 2022.");
    expect(res.status, res.text.slice(0, 400)).toBe(200);
    expect(res.json.text).toBe("Apple made 394 billion, Tesla 81 billion.");
    const prompts = promptsSince(before);
    expect(prompts).toHaveLength(4);
    expect(prompts[0]).toContain('"name": "apple_tool"');
    // Each tool's store keeps its metadata filter: the Apple engine never saw Tesla's record.
    const appleCall = prompts.find((p) => p.includes("Query: What was Apple's revenue in 2022?"))!;
    expect(appleCall).toContain(APPLE);
    expect(appleCall).not.toContain(TESLA);
    // The final answer goes through the template's compact-and-refine prompt.
    expect(prompts[3]).toContain("The SEC documents have the following titles");
    expect(res.json.sourceDocuments.map((d: { pageContent: string }) => d.pageContent).sort()).toEqual([APPLE, TESLA]);
  });

  it("sub-questions that are not the JSON asked for get one repair attempt, then 502 naming the engine", async () => {
    model.setBrain(() => ({ content: "Sure! First ask Apple, then Tesla." }));
    const before = model.requests.length;
    const res = await predict(id, "Compare Apple's and Tesla's revenue in 2022.");
    expect(res.status).toBe(502);
    expect(res.json.error.message).toMatch(/Sub Question Query Engine.*sub-questions could not be used.*not JSON/);
    expect(promptsSince(before)).toHaveLength(2);
    expect(promptsSince(before)[1]).toContain("That answer cannot be used: the reply is not JSON");
  });
});
