import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import * as stores from "../../app/api/v1/vector/stores/[id]/route";
import * as storeNode from "../../app/api/v1/vector/stores/[id]/[nodeId]/route";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { FAQ_CSV, multiStoreGraph, REFUNDS_MD, SHIPPING_LINES } from "../support/docs-flows";
import { makeDocx, makePdf } from "../support/documents";
import { auth, call } from "../support/http";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";

// The keyword store works on both engines; these tests use it so they also run on the PostgreSQL
// server without pgvector (vector-specific behaviour is in upsert-vector.test.ts).

let stub: ModelStub;
let key: string;
let flowId: string;
const KS = "keywordStore";

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: stub.url,
    UPSERT_MAX_FILE_BYTES: "4096",
    UPSERT_MAX_FILES: "4",
  });
  resetEnvForTests();
  flowId = (
    await createChatflow(
      { name: "docs", graph: multiStoreGraph({ chatUrl: stub.url }) as never, overrideAllowList: ["chunkSize"] },
      systemCaller,
    )
  ).id;
  key = (await createApiKey({ name: "upsert", permissions: ["upsert"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(() => stub.close());

type Part = { name: string; content: string | Buffer; field?: string };

/** POSTs multipart/form-data to the real route handler. */
async function upsertFiles(
  files: Part[],
  fields: Record<string, string> = {},
  headers: Record<string, string> = auth.bearer(key),
  id = flowId,
) {
  const form = new FormData();
  for (const f of files)
    form.append(
      f.field ?? "files",
      new Blob([typeof f.content === "string" ? f.content : new Uint8Array(f.content)]),
      f.name,
    );
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const req = new Request(`http://127.0.0.1:3000/api/v1/vector/upsert/${id}`, { method: "POST", headers, body: form });
  const res = await upsert.POST(req, { params: Promise.resolve({ id }) });
  return { status: res.status, json: await res.json() };
}

const upsertJson = (body: object, id = flowId) =>
  call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body });

async function chunks(nodeId = KS, id = flowId) {
  const rows = await (await getDb()).documentChunk.findMany({
    where: { chatflowId: id, nodeId },
    orderBy: { content: "asc" },
  });
  return rows.map((r) => ({ source: r.source, content: r.content, metadata: r.metadata as Record<string, unknown> }));
}

describe("vector upsert (multipart)", () => {
  it("loads a PDF, a CSV, a Markdown, a DOCX and a JSON file with source metadata and right counts", async () => {
    const res = await upsertFiles(
      [
        { name: "refunds.md", content: REFUNDS_MD },
        { name: "shipping.pdf", content: makePdf(SHIPPING_LINES) },
        { name: "faq.csv", content: FAQ_CSV },
        { name: "care.docx", content: makeDocx(["Clean the screen with a dry cloth."]) },
      ],
      { stopNodeId: KS, returnSourceDocuments: "true" },
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const stored = await chunks();
    // Markdown: 3 chunks (chunk size 80); PDF: 1 page, 1 chunk; CSV: 2 rows; DOCX: 1 paragraph.
    expect(res.json).toMatchObject({ numAdded: stored.length, numUpdated: 0, numSkipped: 0, numDeleted: 0 });
    expect(stored.length).toBe(7);
    expect(stored.filter((c) => c.source === "refunds.md").map((c) => c.content)).toHaveLength(3);
    expect(
      stored
        .filter((c) => c.source === "faq.csv")
        .map((c) => c.content)
        .sort(),
    ).toEqual([
      "question: Do you ship abroad?\nanswer: Yes: to the EU and the UK.",
      "question: What is the warranty?\nanswer: Two years on every laptop.",
    ]);
    expect(
      stored
        .filter((c) => c.source === "faq.csv")
        .map((c) => c.metadata.row)
        .sort(),
    ).toEqual([1, 2]);
    const pdf = stored.filter((c) => c.source === "shipping.pdf");
    expect(pdf.map((c) => c.content).join(" ")).toContain("Orders leave our Leeds warehouse in 2 days.");
    expect(pdf.every((c) => c.metadata.page === 1)).toBe(true);
    expect(stored.find((c) => c.source === "care.docx")?.content).toBe("Clean the screen with a dry cloth.");
    expect(res.json.addedDocs).toHaveLength(stored.length);
    expect(res.json.addedDocs[0]).toEqual({
      pageContent: expect.any(String),
      metadata: expect.objectContaining({ source: expect.any(String) }),
    });
    expect(res.json.stores).toEqual([
      expect.objectContaining({ nodeId: KS, label: "Keyword Store", numAdded: stored.length }),
    ]);
    // The files are kept under their content's SHA-256, never under the names the client sent.
    const kept = fs.readdirSync(path.join(process.env.DATA_DIR!, "uploads", flowId, "documents")).sort();
    expect(kept).toHaveLength(4);
    for (const name of kept) expect(name).toMatch(/^[0-9a-f]{64}\.(md|pdf|csv|docx)$/);
  });

  it("adds nothing when the same files are upserted again", async () => {
    const before = await chunks();
    const res = await upsertFiles(
      [
        { name: "refunds.md", content: REFUNDS_MD },
        { name: "faq.csv", content: FAQ_CSV },
      ],
      { stopNodeId: KS },
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ numAdded: 0, numUpdated: 0, numSkipped: 5, numDeleted: 0 });
    expect(res.json.addedDocs).toBeUndefined();
    expect(await chunks()).toEqual(before);
  });

  it("replaces the changed chunks of a changed file and keeps the other sources", async () => {
    const changed = REFUNDS_MD.replace("within 14 days", "within 10 days");
    const res = await upsertFiles([{ name: "refunds.md", content: changed }], { stopNodeId: KS });
    expect(res.json).toMatchObject({ numAdded: 1, numSkipped: 2, numDeleted: 1 });
    const stored = await chunks();
    expect(stored.map((c) => c.content).join("\n")).toContain("within 10 days");
    expect(stored.map((c) => c.content).join("\n")).not.toContain("within 14 days");
    expect(stored.some((c) => c.source === "faq.csv")).toBe(true);
  });

  it("reads other form fields as overrides under the chatflow's allow-list", async () => {
    const res = await upsertFiles(
      [{ name: "long.txt", content: Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ") }],
      { stopNodeId: KS, chunkSize: "30" },
    );
    expect(res.status).toBe(200);
    const long = (await chunks()).filter((c) => c.source === "long.txt");
    expect(long.length).toBeGreaterThan(8);
    expect(long.every((c) => c.content.length <= 30)).toBe(true);
    const refused = await upsertFiles([{ name: "x.txt", content: "x" }], { stopNodeId: KS, topK: "9" });
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/overrideConfig.topK is not allowed/);
  });

  it("JSON upsert: loads the loaders' saved files (here: none, so nothing changes)", async () => {
    const before = await chunks();
    const res = await upsertJson({ stopNodeId: [KS], overrideConfig: { returnSourceDocuments: true } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ numAdded: 0, numDeleted: 0, addedDocs: [] });
    expect(await chunks()).toEqual(before);
  });
});

describe("vector upsert (JSON)", () => {
  it("loads the PDF, CSV and Markdown files saved in the loaders, and a plain text given by override", async () => {
    const graph = multiStoreGraph({ chatUrl: stub.url });
    const set = (id: string, inputs: Record<string, unknown>) =>
      Object.assign(graph.nodes.find((n) => n.id === id)!.data.inputs, inputs);
    set("textLoader", { file: REFUNDS_MD, sourceName: "refunds.md" });
    set("pdfLoader", { file: `data:application/pdf;base64,${makePdf(SHIPPING_LINES).toString("base64")}` });
    set("csvLoader", { file: FAQ_CSV, sourceName: "faq.csv", metadata: { team: "support" } });
    graph.nodes.push({
      id: "note",
      type: "plainTextLoader",
      position: { x: 0, y: 0 },
      data: { inputs: { text: "placeholder", sourceName: "note" } },
    });
    graph.edges.push({
      id: "note-ks",
      source: "note",
      sourceHandle: "note:out:document",
      target: KS,
      targetHandle: `${KS}:in:document`,
    });
    const id = (
      await createChatflow({ name: "saved files", graph: graph as never, overrideAllowList: ["text"] }, systemCaller)
    ).id;

    const res = await upsertJson({ overrideConfig: { text: "Gift cards never expire." } }, id);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const stored = await chunks(KS, id);
    expect(res.json).toMatchObject({ numAdded: 7, numSkipped: 0, numDeleted: 0 });
    expect(stored.map((c) => c.source).sort()).toEqual([
      "PDF Loader",
      "faq.csv",
      "faq.csv",
      "note",
      "refunds.md",
      "refunds.md",
      "refunds.md",
    ]);
    expect(stored.find((c) => c.source === "note")?.content).toBe("Gift cards never expire.");
    expect(stored.filter((c) => c.source === "faq.csv").every((c) => c.metadata.team === "support")).toBe(true);

    const again = await upsertJson({ overrideConfig: { text: "Gift cards never expire." } }, id);
    expect(again.json).toMatchObject({ numAdded: 0, numSkipped: 7, numDeleted: 0 });
    const changed = await upsertJson({ overrideConfig: { text: "Gift cards expire after 3 years." } }, id);
    expect(changed.json).toMatchObject({ numAdded: 1, numSkipped: 6, numDeleted: 1 });
  });
});

describe("only the stores' subgraph is built", () => {
  it("upserts even when a node outside that subgraph could not be built (its credential is gone)", async () => {
    const graph = multiStoreGraph({ chatUrl: stub.url });
    graph.nodes.find((n) => n.id === "chatModel")!.data.inputs.credential = "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b";
    const id = (await createChatflow({ name: "broken model", graph: graph as never }, systemCaller)).id;
    const res = await upsertFiles([{ name: "refunds.md", content: REFUNDS_MD }], {}, auth.bearer(key), id);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.numAdded).toBe(3);
  });
});

describe("concurrent upserts", () => {
  it("two simultaneous upserts of the same new file store its chunks once, and both succeed", async () => {
    const text =
      "Alpha paragraph about invoices and payment terms.\n\nBeta paragraph about couriers and parcel tracking.";
    const [a, b] = await Promise.all(
      [1, 2].map(() => upsertFiles([{ name: "same.txt", content: text }], { stopNodeId: KS })),
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await chunks()).filter((c) => c.source === "same.txt")).toHaveLength(2);
  });
});

describe("refused upserts change nothing", () => {
  const cases: [string, Part[], Record<string, string>, number, RegExp][] = [
    [
      "a PDF name on text content",
      [{ name: "fake.pdf", content: "just text" }],
      {},
      415,
      /name says PDF, but the content is plain text/,
    ],
    [
      "a type no loader reads",
      [{ name: "tool.exe", content: Buffer.from([0x4d, 0x5a, 0x00, 0x01]) }],
      {},
      415,
      /Accepted types: PDF/,
    ],
    ["a file over the size cap", [{ name: "big.txt", content: "a".repeat(5000) }], {}, 413, /larger than 4096 bytes/],
    [
      "too many files",
      Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, content: "x" })),
      {},
      413,
      /At most 4 files/,
    ],
    ["a file in another field", [{ name: "a.txt", content: "x", field: "document" }], {}, 400, /form field "files"/],
    ["an empty file", [{ name: "empty.md", content: "" }], {}, 400, /empty/],
    [
      "a bad returnSourceDocuments",
      [{ name: "a.md", content: "x" }],
      { returnSourceDocuments: "yes" },
      400,
      /returnSourceDocuments/,
    ],
  ];
  for (const [what, files, fields, status, message] of cases) {
    it(`refuses ${what} (${status})`, async () => {
      const before = await chunks();
      const res = await upsertFiles(files, { stopNodeId: KS, ...fields });
      expect(res.status).toBe(status);
      expect(res.json.error.message).toMatch(message);
      expect(await chunks()).toEqual(before);
    });
  }

  it("names the accepted types when the chosen stores' loaders do not read the file", async () => {
    const graph = multiStoreGraph({ chatUrl: stub.url });
    graph.nodes = graph.nodes.filter((n) => !["pdfLoader", "docxLoader", "csvLoader", "jsonLoader"].includes(n.id));
    graph.edges = graph.edges.filter(
      (e) => graph.nodes.some((n) => n.id === e.source) && graph.nodes.some((n) => n.id === e.target),
    );
    const textOnly = (await createChatflow({ name: "text only", graph: graph as never }, systemCaller)).id;
    const res = await upsertFiles(
      [{ name: "shipping.pdf", content: makePdf(SHIPPING_LINES) }],
      {},
      auth.bearer(key),
      textOnly,
    );
    expect(res.status).toBe(415);
    expect(res.json.error.message).toBe(
      "shipping.pdf: The loaders of this flow accept: Text (.txt, .text, .log), Markdown (.md, .markdown, .mdx).",
    );
    expect(await chunks(KS, textOnly)).toEqual([]);
  });

  it("refuses callers without the upsert permission or outside the key's scope", async () => {
    expect((await upsertFiles([{ name: "a.md", content: "x" }], {}, {})).status).toBe(401);
    const predictOnly = (
      await createApiKey({ name: "p", permissions: ["predict"], chatflowIds: [] }, await fixtureKeyOwner())
    ).key;
    expect((await upsertFiles([{ name: "a.md", content: "x" }], {}, auth.bearer(predictOnly))).status).toBe(403);
    const other = (
      await createChatflow({ name: "other", graph: multiStoreGraph({ chatUrl: stub.url }) as never }, systemCaller)
    ).id;
    const scoped = (
      await createApiKey({ name: "s", permissions: ["upsert"], chatflowIds: [other] }, await fixtureKeyOwner())
    ).key;
    expect((await upsertFiles([{ name: "a.md", content: "x" }], { stopNodeId: KS }, auth.bearer(scoped))).status).toBe(
      403,
    );
  });

  it("answers 404 for an unknown chatflow and 422 for one without a store", async () => {
    const unknown = await upsertJson({}, "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b");
    expect(unknown.status).toBe(404);
    const graph = multiStoreGraph({ chatUrl: stub.url });
    const plain = (
      await createChatflow(
        {
          name: "no store",
          graph: {
            nodes: [
              graph.nodes.find((n) => n.id === "chatModel")!,
              { id: "c", type: "conversationChain", position: { x: 0, y: 0 }, data: { inputs: {} } },
            ],
            edges: [
              {
                id: "e",
                source: "chatModel",
                sourceHandle: "chatModel:out:chatModel",
                target: "c",
                targetHandle: "c:in:model",
              },
            ],
          } as never,
        },
        systemCaller,
      )
    ).id;
    const none = await upsertJson({}, plain);
    expect(none.status).toBe(422);
    expect(none.json.error.message).toMatch(/no vector store/);
  });
});

describe("store nodes in the studio", () => {
  it("lists store nodes with their chunk counts and clears one", async () => {
    // An admin: the fixture chatflow has no owner, and builders manage only their own.
    const session = await auth.session(
      (
        await (
          await getDb()
        ).user.create({ data: { email: "b@example.com", name: "B", passwordHash: "x", role: "admin" } })
      ).id,
      "b@example.com",
    );
    const list = await call(stores.GET, { params: { id: flowId }, headers: session });
    expect(list.status).toBe(200);
    const held = (await chunks()).length;
    expect(list.json).toEqual([
      { nodeId: KS, label: "Keyword Store", type: "keywordStore", storeType: "keyword", chunks: held },
    ]);
    const cleared = await call(storeNode.DELETE, {
      method: "DELETE",
      params: { id: flowId, nodeId: KS },
      headers: session,
    });
    expect(cleared.json).toEqual({ nodeId: KS, deleted: held });
    expect(await chunks()).toEqual([]);
    const missing = await call(storeNode.DELETE, {
      method: "DELETE",
      params: { id: flowId, nodeId: "nope" },
      headers: session,
    });
    expect(missing.status).toBe(404);
  });
});
