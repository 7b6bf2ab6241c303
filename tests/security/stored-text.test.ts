// Text that reaches the database from somewhere other than the request body — text parsed out of
// uploaded or saved documents, model answers, tool and source-document JSON — may hold NUL
// characters or lone UTF-16 surrogates, which PostgreSQL refuses in text and jsonb. It used to
// fail at the database write with a 500; now it is cleaned where it enters storage (NUL removed,
// lone surrogates become U+FFFD) and the request succeeds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as analyze from "../../app/api/v1/domains/analyze/route";
import * as domains from "../../app/api/v1/domains/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { getDb } from "../../lib/db/client";
import { insertExchange } from "../../lib/db/queries/chat-messages";
import type { Graph } from "@/common/schemas/graph";
import { createChatflow } from "../../lib/services/chatflows";
import { domainAnalysisQueue } from "../../lib/services/domains-analysis";
import { readExampleFlows } from "../../lib/services/examples";
import { fixtureKey, fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { multiStoreGraph } from "../support/docs-flows";
import { exampleFlow } from "../../dev/flows";
import { auth, call } from "../support/http";
import { scriptedBrain, type ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";

let stub: ModelStub;
let upsertKey: string;
let predictKey: string;

beforeAll(async () => {
  stub = await startServerModelStub({ OPENAI_EMBEDDING_MODEL: "stub-embedding" });
  upsertKey = await fixtureKey("u", ["upsert"]);
  predictKey = await fixtureKey("p", ["predict"]);
});
afterAll(() => stub.close());

const newFlow = async (name: string, graph: Graph) =>
  (await createChatflow({ name, graph: graph as never }, systemCaller)).id;
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString("base64")}`;

async function upsertForm(id: string, files: { name: string; bytes: Buffer }[]) {
  const form = new FormData();
  for (const f of files) form.append("files", new Blob([new Uint8Array(f.bytes)]), f.name);
  const res = await upsert.POST(
    new Request("http://127.0.0.1:3000/x", { method: "POST", headers: auth.bearer(upsertKey), body: form }),
    { params: Promise.resolve({ id }) },
  );
  return { status: res.status, json: await res.json() };
}

async function storedChunks(chatflowId: string): Promise<{ content: string; metadata: unknown }[]> {
  return (await getDb()).$queryRawUnsafe(
    `SELECT "content", "metadata" FROM "DocumentChunk" WHERE "chatflowId" = $1::uuid ORDER BY "content"`,
    chatflowId,
  );
}

describe("document text with NUL characters or lone surrogates is stored cleaned", () => {
  it("an uploaded JSON file whose strings escape NUL and a lone surrogate: 200, chunks without them", async () => {
    const id = await newFlow("json nul", multiStoreGraph({ chatUrl: stub.url, chunkSize: 1000 }));
    const json = String.raw`{"faq":[{"answer":"Refunds\u0000 take 14 days\ud800."},{"answer":"Ask\u0000\u0000 us"}]}`;
    const res = await upsertForm(id, [{ name: "faq.json", bytes: Buffer.from(json) }]);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.numAdded).toBe(2);
    expect((await storedChunks(id)).map((c) => c.content)).toEqual(["Ask us", "Refunds take 14 days\uFFFD."]);
  });

  it("text and CSV files saved in loaders with NUL bytes: 200 on upsert, chunks without NUL", async () => {
    const graph = multiStoreGraph({ chatUrl: stub.url, chunkSize: 1000 });
    const inputs = (nodeId: string) => graph.nodes.find((n) => n.id === nodeId)!.data.inputs as Record<string, unknown>;
    inputs("textLoader").file = dataUrl("text/plain", Buffer.from("Opening\u0000 hours: nine\u0000 to five."));
    inputs("csvLoader").file = dataUrl("text/csv", Buffer.from("city,note\u0000\nLeeds,open\u0000 Sundays\n"));
    const id = await newFlow("saved nul", graph);
    const res = await call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(upsertKey), body: {} });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const chunks = await storedChunks(id);
    expect(chunks.map((c) => c.content)).toEqual(["Opening hours: nine to five.", "city: Leeds\nnote: open Sundays"]);
    expect(JSON.stringify(chunks)).not.toContain("\\u0000");
  });
});

describe("model and tool output with NUL characters or lone surrogates is stored cleaned", () => {
  it("a model answer holding NUL and a lone surrogate: 200, and the stored message has neither", async () => {
    const id = await newFlow("answer nul", exampleFlow("conversation.json").graph as Graph);
    stub.setBrain(scriptedBrain([{ content: "Hello\u0000 there\ud800!" }]));
    const res = await call(prediction.POST, {
      method: "POST",
      params: { id },
      headers: auth.bearer(predictKey),
      body: { question: "hi" },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const stored = await (await getDb()).chatMessage.findMany({ where: { chatflowId: id, role: "apiMessage" } });
    expect(stored.map((m) => m.content)).toEqual(["Hello there\uFFFD!"]);
  });

  it("a domain analysis whose model answer (text and JSON) holds NUL and a lone surrogate succeeds and is stored cleaned", async () => {
    const owner = await fixtureKeyOwner();
    const admin = await auth.session(owner.kind === "user" ? owner.user.id : "");
    const example = readExampleFlows().find((f) => f.file === "domain-analyst.json")!;
    const flowId = (await createChatflow({ name: example.name, graph: example.graph as never }, systemCaller)).id;
    expect(
      (await call(domains.POST, { method: "POST", headers: admin, body: { name: "nul.example.com" } })).status,
    ).toBe(200);
    const domain = () => getDb().then((db) => db.domain.findUniqueOrThrow({ where: { name: "nul.example.com" } }));
    // Raw NUL and a lone surrogate in the text; JSON escapes of both (kept as written) in the JSON part.
    const jsonPart = String.raw`{"summary":"kettles\u0000","tags\udc00":["a\u0000"]}`;
    stub.setBrain(scriptedBrain([{ content: `Sells\u0000 kettles\ud800 ${jsonPart}` }]));
    const res = await call(analyze.POST, {
      method: "POST",
      headers: admin,
      body: { chatflowId: flowId, ids: [(await domain()).id] },
    });
    expect(res.status, res.text).toBe(202);
    await domainAnalysisQueue().drained();
    const stored = await domain();
    expect(stored).toMatchObject({ analysisStatus: "succeeded", analysisError: null });
    expect(stored.analysisText).toBe(`Sells kettles\uFFFD ${jsonPart}`);
    expect(stored.analysis).toEqual({ summary: "kettles", "tags\uFFFD": ["a"] });
  });

  it("tool and source-document JSON holding NUL and lone surrogates (in values and keys) is stored cleaned", async () => {
    const id = await newFlow("tools nul", exampleFlow("conversation.json").graph as Graph);
    const { apiMessageId } = await insertExchange({
      chatflowId: id,
      sessionId: "s",
      chatId: "c",
      chatType: "EXTERNAL",
      question: "q\u0000",
      answer: "a\u0000",
      usedTools: [{ tool: "search", toolInput: { "q\u0000": "x\u0000y" }, toolOutput: "out\udc00" }],
      sourceDocuments: [{ pageContent: "doc\u0000", metadata: { source: "s\ud83d" } }],
      askedAt: new Date(),
      answeredAt: new Date(),
    });
    const row = await (await getDb()).chatMessage.findUniqueOrThrow({ where: { id: apiMessageId } });
    expect(row.content).toBe("a");
    expect(row.usedTools).toEqual([{ tool: "search", toolInput: { q: "xy" }, toolOutput: "out\uFFFD" }]);
    expect(row.sourceDocuments).toEqual([{ pageContent: "doc", metadata: { source: "s\uFFFD" } }]);
  });
});
