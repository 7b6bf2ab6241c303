import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { getDb } from "../../lib/db/client";
import type { Graph } from "@/common/schemas/graph";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKey, systemCaller } from "../../dev/callers";
import { docsExample, multiStoreGraph } from "../support/docs-flows";
import { makeDocx, makePdf } from "../support/documents";
import { auth, call } from "../support/http";
import { databaseHasPgvector } from "../support/pgvector";
import type { ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";

// Issue 10, finding 7: upsert counts match what is stored (also under concurrency, on both
// stores), identical upserted files are stored once, and binary files saved in a loader's file
// field (base64 data URLs, as the canvas saves them) load intact.

const hasPgvector = await databaseHasPgvector();

/** 40 lines of ~60 characters: with chunkSize 80, one chunk each. */
const FORTY_LINES = Array.from(
  { length: 40 },
  (_, i) => `Line ${i + 1} of the handbook: item ${i * 7919} is stored in aisle ${i}.`,
).join("\n");

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

async function upsertFile(id: string, name: string, bytes: Buffer | string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("files", new Blob([new Uint8Array(Buffer.from(bytes))]), name);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await upsert.POST(
    new Request("http://127.0.0.1:3000/x", { method: "POST", headers: auth.bearer(upsertKey), body: form }),
    { params: Promise.resolve({ id }) },
  );
  return { status: res.status, json: await res.json() };
}

async function chunks(chatflowId: string, nodeId: string): Promise<number> {
  const rows = await (await getDb()).$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM "DocumentChunk" WHERE "chatflowId" = $1::uuid AND "nodeId" = $2`,
    chatflowId,
    nodeId,
  );
  return rows[0].n;
}

/** Ten identical upserts at once: each reports every chunk as added or skipped, and the added ones sum to what is stored. */
async function expectConcurrentCountsMatch(id: string, nodeId: string, fields: Record<string, string> = {}) {
  const results = await Promise.all(
    Array.from({ length: 10 }, () => upsertFile(id, "handbook.txt", FORTY_LINES, fields)),
  );
  for (const r of results) expect(r.status, JSON.stringify(r.json)).toBe(200);
  const stored = await chunks(id, nodeId);
  expect(stored).toBe(40);
  expect(results.reduce((n, r) => n + r.json.numAdded, 0)).toBe(stored);
  for (const r of results) expect(r.json.numAdded + r.json.numSkipped).toBe(40);
}

describe("upsert counts match what is stored", () => {
  it("keyword store: 10 concurrent identical upserts add 40 chunks in all", async () => {
    const id = await newFlow("keyword counts", multiStoreGraph({ chatUrl: stub.url }));
    await expectConcurrentCountsMatch(id, "keywordStore");
  });

  // Needs the pgvector extension: runs on PGlite (which ships it); skipped on a PostgreSQL server
  // without it (this machine's: Debian's packages here hold no pgvector).
  it.runIf(hasPgvector)(
    "pgvector store: 10 concurrent identical upserts add 40 chunks (and 40 embeddings) in all",
    async () => {
      const id = await newFlow("vector counts", multiStoreGraph({ chatUrl: stub.url, embeddingsUrl: stub.url }));
      await expectConcurrentCountsMatch(id, "vectorStore", { stopNodeId: "vectorStore" });
      const embedded = await (await getDb()).$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM document_chunk_embeddings WHERE "chatflowId" = $1::uuid`,
        id,
      );
      expect(embedded[0].n).toBe(40);
    },
  );
});

describe("upserted files are stored by content", () => {
  it("50 identical upserts keep one copy of the file; a different file is a second one", async () => {
    const id = await newFlow("one copy", multiStoreGraph({ chatUrl: stub.url }));
    const pdf = makePdf(["Shipping policy", "Orders leave our Leeds warehouse in 2 days."]);
    let added = 0;
    for (let i = 0; i < 50; i++) {
      const res = await upsertFile(id, `shipping-${i % 3}.pdf`, pdf);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      added += res.json.numAdded;
    }
    const dir = path.join(process.env.DATA_DIR!, "uploads", id, "documents");
    expect(fs.readdirSync(dir)).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, fs.readdirSync(dir)[0])).equals(pdf)).toBe(true);
    expect(added).toBe(await chunks(id, "keywordStore"));
    expect((await upsertFile(id, "other.pdf", makePdf(["Returns policy"]))).status).toBe(200);
    expect(fs.readdirSync(dir)).toHaveLength(2);
  });
});

describe("binary files saved in a loader's file field", () => {
  const dataUrl = (mime: string, name: string | undefined, bytes: Buffer) =>
    `data:${mime}${name ? `;name=${encodeURIComponent(name)}` : ""};base64,${bytes.toString("base64")}`;

  it("a DOCX and a PDF saved as base64 data URLs load intact, under their file names, next to a saved text file", async () => {
    const graph = docsExample("docs-qa-keyword.json").graph;
    const inputs = (nodeId: string) => graph.nodes.find((n) => n.id === nodeId)!.data.inputs as Record<string, unknown>;
    const docx = makeDocx(["Warranty terms", "Every kettle carries a warranty of seven years."]);
    const pdf = makePdf(["Opening hours", "The Leeds showroom opens at nine on Sundays."]);
    inputs("docxLoader").file = dataUrl(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "warranty terms.docx",
      docx,
    );
    inputs("pdfLoader").file = dataUrl("application/pdf", "hours.pdf", pdf);
    expect(typeof inputs("guideLoader").file).toBe("string"); // a text file saved as its text keeps working
    const id = await newFlow("saved binaries", graph);

    const res = await call(upsert.POST, {
      method: "POST",
      params: { id },
      headers: auth.bearer(upsertKey),
      body: { overrideConfig: { returnSourceDocuments: true } },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const docs = res.json.addedDocs as { pageContent: string; metadata: { source: string } }[];
    const sources = new Set(docs.map((d) => d.metadata.source));
    expect(sources).toEqual(new Set(["switchyard-guide.md", "warranty terms.docx", "hours.pdf"]));
    expect(docs.find((d) => d.metadata.source === "warranty terms.docx")!.pageContent).toContain(
      "warranty of seven years",
    );
    expect(docs.find((d) => d.metadata.source === "hours.pdf")!.pageContent).toContain("opens at nine on Sundays");

    const ask = (question: string) =>
      call(prediction.POST, { method: "POST", params: { id }, headers: auth.bearer(predictKey), body: { question } });
    expect((await ask("How many years of warranty does a kettle carry?")).json.text).toContain(
      "warranty of seven years",
    );
    expect((await ask("When does the Leeds showroom open on Sundays?")).json.text).toContain(
      "opens at nine on Sundays",
    );
  });

  it("a data URL without a name is recorded under the node's label, as before", async () => {
    const graph = multiStoreGraph({ chatUrl: stub.url });
    const docxNode = graph.nodes.find((n) => n.id === "docxLoader")!;
    (docxNode.data.inputs as Record<string, unknown>).file = dataUrl(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      undefined,
      makeDocx(["Unnamed handbook text"]),
    );
    const id = await newFlow("unnamed", graph);
    const res = await call(upsert.POST, {
      method: "POST",
      params: { id },
      headers: auth.bearer(upsertKey),
      body: { overrideConfig: { returnSourceDocuments: true } },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.addedDocs).toEqual([
      { pageContent: "Unnamed handbook text", metadata: expect.objectContaining({ source: "DOCX Loader" }) },
    ]);
  });
});
