import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import type { Graph } from "@/common/schemas/graph";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { docsExample, multiStoreGraph, REFUNDS_MD } from "../support/docs-flows";
import { auth, call } from "../support/http";
import { textOf } from "../../dev/model-stub/brain";
import { parseSse } from "../../dev/route-server";
import { createModelStub, type Brain, type ModelStub } from "../../dev/model-stub/server";

async function databaseHasPgvector(): Promise<boolean> {
  if (!process.env.DATABASE_URL?.startsWith("postgres")) return true;
  return (
    (await (await getDb()).$queryRawUnsafe<unknown[]>("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"))
      .length > 0
  );
}
const hasPgvector = await databaseHasPgvector();

/** Answers from the context it is given: the refund period when the context holds it, else "I don't know". */
const docsBrain: Brain = ({ messages }) => {
  const last = textOf(messages.at(-1)?.content ?? "");
  if (last.includes("Standalone question:")) return { content: "Which card are refunds paid to?" };
  const system = textOf(messages.find((m) => m.role === "system")?.content ?? "");
  const days = /paid within (\d+) days/.exec(system);
  const card = /original payment card/.test(system) && /card/i.test(last);
  return {
    content: card
      ? "To the original payment card."
      : days
        ? `Refunds are paid within ${days[1]} days.`
        : "I don't know.",
  };
};

let stub: ModelStub;
let upsertKey: string;
let predictKey: string;

beforeAll(async () => {
  stub = await createModelStub({ brain: docsBrain });
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: stub.url,
    OPENAI_MODEL: "stub-model",
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
  });
  resetEnvForTests();
  upsertKey = (await createApiKey({ name: "u", permissions: ["upsert"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
  predictKey = (await createApiKey({ name: "p", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner()))
    .key;
});
afterAll(() => stub.close());

async function createFlow(name: string, graph: Graph, allow: string[] = []) {
  return (await createChatflow({ name, graph: graph as never, overrideAllowList: allow }, systemCaller)).id;
}

const uploadRefunds = (id: string, fields: Record<string, string> = {}) =>
  uploadFile(id, "refunds.md", REFUNDS_MD, fields);

async function uploadFile(id: string, name: string, content: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("files", new Blob([content]), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await upsert.POST(
    new Request("http://127.0.0.1:3000/x", { method: "POST", headers: auth.bearer(upsertKey), body: form }),
    { params: Promise.resolve({ id }) },
  );
  expect(res.status, await res.clone().text()).toBe(200);
}

const ask = (id: string, question: string, overrideConfig: Record<string, unknown> = { returnSourceDocuments: true }) =>
  call(prediction.POST, {
    method: "POST",
    params: { id },
    headers: auth.bearer(predictKey),
    body: { question, overrideConfig },
  });

const sources = (res: { json: { sourceDocuments?: { metadata: { source: string } }[] } }) =>
  res.json.sourceDocuments?.map((d) => d.metadata.source);
const embeddingCalls = () => stub.requests.filter((r) => r.path === "/v1/embeddings").length;

describe("keyword store: answers from documents with no embeddings model", () => {
  it("the Docs QA keyword example answers with the right source document and never calls an embeddings endpoint", async () => {
    const example = docsExample("docs-qa-keyword.json");
    const id = await createFlow(example.name, example.graph);
    const before = embeddingCalls();
    const saved = await call(upsert.POST, {
      method: "POST",
      params: { id },
      headers: auth.bearer(upsertKey),
      body: {},
    });
    expect(saved.json.numAdded).toBeGreaterThan(0);
    await uploadRefunds(id);
    const res = await ask(id, "How long do refunds take?");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("Refunds are paid within 14 days.");
    expect(sources(res)![0]).toBe("refunds.md");
    expect(res.json.sourceDocuments[0].pageContent).toContain("paid within 14 days");
    expect(embeddingCalls()).toBe(before);
    // The node's "Report source documents" (on in this example) is honoured without the caller asking.
    const unasked = await ask(id, "How long do refunds take?", {});
    expect(sources(unasked)![0]).toBe("refunds.md");
    // The same in a streamed answer: a sourceDocuments event before metadata, unasked.
    const streamed = await prediction.POST(
      new Request(`http://127.0.0.1:3000/api/v1/prediction/${id}`, {
        method: "POST",
        headers: { ...auth.bearer(predictKey), "content-type": "application/json" },
        body: JSON.stringify({ question: "How long do refunds take?", streaming: true }),
      }),
      { params: Promise.resolve({ id }) },
    );
    const events = parseSse(await streamed.text());
    const names = events.map((e) => e.event);
    expect(names.indexOf("sourceDocuments")).toBeGreaterThan(names.lastIndexOf("token"));
    expect(names.indexOf("metadata")).toBeGreaterThan(names.indexOf("sourceDocuments"));
    const docs = events.find((e) => e.event === "sourceDocuments")!.data as { metadata: { source: string } }[];
    expect(docs[0].metadata.source).toBe("refunds.md");
    const quiet = await ask(id, "How long do refunds take?", { returnSourceDocuments: false });
    expect(quiet.status).toBe(200);
    expect(quiet.json.sourceDocuments).toBeUndefined();
  });

  it("with the node's 'Report source documents' off, an unasked answer has no sources; asking gets an empty list", async () => {
    const example = docsExample("docs-qa-keyword.json");
    const graph = structuredClone(example.graph);
    const qa = graph.nodes.find((n) => n.id === "qa")!;
    qa.data.inputs = { ...qa.data.inputs, returnSourceDocuments: false };
    const id = await createFlow(`${example.name} (no sources)`, graph);
    await call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(upsertKey), body: {} });
    await uploadRefunds(id);
    const unasked = await ask(id, "How long do refunds take?", {});
    expect(unasked.status, JSON.stringify(unasked.json)).toBe(200);
    expect(unasked.json.text).toBe("Refunds are paid within 14 days.");
    expect(unasked.json.sourceDocuments).toBeUndefined();
    const asked = await ask(id, "How long do refunds take?");
    expect(asked.json.sourceDocuments).toEqual([]);
  });

  it("a Tool Agent finds the documents through a Retriever Tool; its chunks become source documents", async () => {
    const n = (id: string, type: string, inputs: Record<string, unknown> = {}) => ({
      id,
      type,
      position: { x: 0, y: 0 },
      data: { inputs },
    });
    const e = (s: string, o: string, t: string, i: string) => ({
      id: `${s}-${t}`,
      source: s,
      sourceHandle: `${s}:out:${o}`,
      target: t,
      targetHandle: `${t}:in:${i}`,
    });
    const id = await createFlow("agent", {
      nodes: [
        n("loader", "textFileLoader"),
        n("store", "keywordStore"),
        n("tool", "retrieverTool", { name: "search_docs" }),
        n("model", "chatOpenAICompatible"),
        n("agent", "toolAgent"),
      ],
      edges: [
        e("loader", "document", "store", "document"),
        e("store", "retriever", "tool", "retriever"),
        e("tool", "tool", "agent", "tools"),
        e("model", "chatModel", "agent", "model"),
      ],
    } as Graph);
    await uploadRefunds(id);
    let step = 0;
    stub.setBrain(({ messages }) => {
      step += 1;
      if (step === 1) return { toolCalls: [{ name: "search_docs", arguments: { query: "refund period" } }] };
      const observation = textOf(messages.at(-1)?.content ?? "");
      return { content: observation.includes("paid within 14 days") ? "Within 14 days (see refunds.md)." : "No idea." };
    });
    try {
      const res = await ask(id, "How quickly are refunds paid?");
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.text).toBe("Within 14 days (see refunds.md).");
      expect(res.json.usedTools).toEqual([
        expect.objectContaining({ tool: "search_docs", toolInput: { query: "refund period" } }),
      ]);
      expect(new Set(sources(res))).toEqual(new Set(["refunds.md"]));
    } finally {
      stub.setBrain(docsBrain);
    }
  });
});

// Needs the pgvector extension: PGlite ships it (these run in the PGlite steps); a PostgreSQL server
// without it (this machine's: Debian's packages here hold no pgvector) skips them.
describe.runIf(hasPgvector)("vector store retrieval", () => {
  it("the Docs QA example answers from an uploaded file and rephrases follow-ups with its memory", async () => {
    const example = docsExample("docs-qa.json");
    const id = await createFlow(example.name, example.graph);
    await call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(upsertKey), body: {} });
    await uploadRefunds(id);
    const first = await ask(id, "How long do refunds take?", { returnSourceDocuments: true, sessionId: "s1" });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    expect(first.json.text).toBe("Refunds are paid within 14 days.");
    expect(sources(first)![0]).toBe("refunds.md");

    const requestsBefore = stub.requests.length;
    const followUp = await ask(id, "And to which card?", { returnSourceDocuments: true, sessionId: "s1" });
    expect(followUp.json.text).toBe("To the original payment card.");
    const chats = stub.requests.slice(requestsBefore).filter((r) => r.path === "/v1/chat/completions");
    expect(chats).toHaveLength(2);
    expect(JSON.stringify(chats[0].body)).toContain("How long do refunds take?");
    expect(JSON.stringify(chats[0].body)).toContain("Standalone question:");
    // The query embedded is the rephrased one.
    const embedded = stub.requests
      .slice(requestsBefore)
      .filter((r) => r.path === "/v1/embeddings")
      .map((r) => JSON.stringify(r.body));
    expect(embedded.some((b) => b.includes("Which card are refunds paid to?"))).toBe(true);
    expect(sources(followUp)).toContain("refunds.md");
  });

  it("hybrid: a vector store and a keyword store wired into one chain both contribute", async () => {
    const id = await createFlow("hybrid", multiStoreGraph({ chatUrl: stub.url, embeddingsUrl: stub.url }));
    // Each store holds a different file, so the sources show which store found what.
    await uploadRefunds(id, { stopNodeId: "keywordStore" });
    await uploadFile(id, "shipping.txt", "Orders ship from Leeds within 2 days.", { stopNodeId: "vectorStore" });
    const res = await ask(id, "How long do refunds take?");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.text).toBe("Refunds are paid within 14 days.");
    expect(new Set(sources(res))).toEqual(new Set(["refunds.md", "shipping.txt"]));
  });
});
