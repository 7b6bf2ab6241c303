import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { getDb } from "../../lib/db/client";
import { resetEnvForTests } from "../../lib/env";
import { createApiKey } from "../../lib/services/api-keys";
import { createChatflow } from "../../lib/services/chatflows";
import { fixtureKeyOwner, systemCaller } from "../../dev/callers";
import { docsExample, multiStoreGraph, SHIPPING_LINES } from "../support/docs-flows";
import { makePdf } from "../support/documents";
import { auth, call } from "../support/http";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";

/** Embedded PGlite ships pgvector; a PostgreSQL server may not (this machine's has none). */
async function databaseHasPgvector(): Promise<boolean> {
  if (!process.env.DATABASE_URL?.startsWith("postgres")) return true;
  const rows = await (await getDb()).$queryRawUnsafe<unknown[]>(
    "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
  );
  return rows.length > 0;
}
const hasPgvector = await databaseHasPgvector();

let stub: ModelStub;
let key: string;
let docsQa: string;

beforeAll(async () => {
  stub = await createModelStub();
  Object.assign(process.env, {
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: stub.url,
    OPENAI_EMBEDDING_MODEL: "stub-embedding",
  });
  resetEnvForTests();
  const example = docsExample("docs-qa.json");
  docsQa = (
    await createChatflow(
      { name: example.name, graph: example.graph as never, overrideAllowList: example.overrideAllowList },
      systemCaller,
    )
  ).id;
  key = (await createApiKey({ name: "upsert", permissions: ["upsert"], chatflowIds: [] }, await fixtureKeyOwner())).key;
});
afterAll(() => stub.close());

const upsertJson = (id: string, body: object = {}) =>
  call(upsert.POST, { method: "POST", params: { id }, headers: auth.bearer(key), body });

async function upsertPdf(id: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append("files", new Blob([new Uint8Array(makePdf(SHIPPING_LINES))]), "shipping.pdf");
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await upsert.POST(
    new Request("http://127.0.0.1:3000/x", { method: "POST", headers: auth.bearer(key), body: form }),
    { params: Promise.resolve({ id }) },
  );
  return { status: res.status, json: await res.json() };
}

async function counts(chatflowId: string) {
  const db = await getDb();
  const rows = await db.$queryRawUnsafe<{ nodeId: string; n: number }[]>(
    `SELECT "nodeId", count(*)::int AS n FROM "DocumentChunk" WHERE "chatflowId" = $1::uuid GROUP BY "nodeId" ORDER BY "nodeId"`,
    chatflowId,
  );
  return Object.fromEntries(rows.map((r) => [r.nodeId, r.n]));
}

const embeddingCalls = () => stub.requests.filter((r) => r.path === "/v1/embeddings").length;

// Needs the pgvector extension: PGlite ships it (these run in the PGlite steps); a PostgreSQL server
// without it (this machine's: Debian's packages here hold no pgvector) skips them, and the block
// at the end covers that case.
describe.runIf(hasPgvector)("vector store upsert (pgvector)", () => {
  it("JSON upsert loads the saved guide of the Docs QA example, embeds each chunk once, and skips it the second time", async () => {
    const before = embeddingCalls();
    const first = await upsertJson(docsQa, { overrideConfig: { returnSourceDocuments: true } });
    expect(first.status, JSON.stringify(first.json)).toBe(200);
    const stored = (await counts(docsQa)).vectorStore;
    expect(first.json).toMatchObject({ numAdded: stored, numSkipped: 0, numDeleted: 0 });
    expect(stored).toBeGreaterThan(2);
    expect(
      first.json.addedDocs.every((d: { metadata: { source: string } }) => d.metadata.source === "switchyard-guide.md"),
    ).toBe(true);
    const embedded = await (await getDb()).$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM document_chunk_embeddings e JOIN "DocumentChunk" c ON c.id = e."chunkId" WHERE c."chatflowId" = $1::uuid`,
      docsQa,
    );
    expect(embedded[0].n).toBe(stored);
    expect(embeddingCalls()).toBeGreaterThan(before);
    // The embeddings node has no settings: key, base URL and model come from the environment.
    expect(stub.requests.filter((r) => r.path === "/v1/embeddings").at(-1)?.body).toMatchObject({
      model: "stub-embedding",
    });

    const callsBefore = embeddingCalls();
    const second = await upsertJson(docsQa);
    expect(second.json).toMatchObject({ numAdded: 0, numSkipped: stored, numDeleted: 0 });
    expect(embeddingCalls()).toBe(callsBefore);
  });

  it("multipart PDF upload lands in the vector store next to the guide", async () => {
    const before = (await counts(docsQa)).vectorStore;
    const res = await upsertPdf(docsQa, { returnSourceDocuments: "true" });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.addedDocs).toEqual([
      {
        pageContent: SHIPPING_LINES.join("\n"),
        metadata: expect.objectContaining({ source: "shipping.pdf", page: 1 }),
      },
    ]);
    expect(res.json.numAdded).toBe(1);
    expect((await counts(docsQa)).vectorStore).toBe(before + 1);
  });

  it("with two stores, asks for stopNodeId (listing them) and writes only the chosen one", async () => {
    const id = (
      await createChatflow(
        { name: "two stores", graph: multiStoreGraph({ chatUrl: stub.url, embeddingsUrl: stub.url }) as never },
        systemCaller,
      )
    ).id;
    const ambiguous = await upsertPdf(id);
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.json.error.message).toMatch(
      /2 vector stores: .*"Keyword Store" \(keywordStore\).*"Vector Store" \(vectorStore\)|2 vector stores: .*"Vector Store" \(vectorStore\).*"Keyword Store" \(keywordStore\)/,
    );
    expect(ambiguous.json.error.details.map((d: { nodeId: string }) => d.nodeId).sort()).toEqual([
      "keywordStore",
      "vectorStore",
    ]);
    const unknown = await upsertPdf(id, { stopNodeId: "chatModel" });
    expect(unknown.status).toBe(400);
    expect(await counts(id)).toEqual({});

    expect((await upsertPdf(id, { stopNodeId: "vectorStore" })).status).toBe(200);
    expect(await counts(id)).toEqual({ vectorStore: 1 });
    const both = await upsertJson(id, { stopNodeId: ["vectorStore", "keywordStore"] });
    expect(both.status).toBe(200);
    expect(await counts(id)).toEqual({ vectorStore: 1 });
  });

  it("leaves every store as it was when embedding fails (one transaction for all stores)", async () => {
    const id = (
      await createChatflow(
        {
          name: "dead embeddings",
          graph: multiStoreGraph({ chatUrl: stub.url, embeddingsUrl: "http://127.0.0.1:1/v1" }) as never,
        },
        systemCaller,
      )
    ).id;
    const res = await upsertPdf(id, { stopNodeId: "keywordStore,vectorStore" });
    expect(res.status).toBeGreaterThanOrEqual(502);
    expect(res.json.error.code).toMatch(/^upstream_/);
    expect(await counts(id)).toEqual({});
  });
});

// Runs only where the database lacks pgvector (this machine's PostgreSQL server); skipped on PGlite,
// in-process or through its thread, which ships the extension (the block above runs there instead).
describe.runIf(!hasPgvector)("vector store on a PostgreSQL server without pgvector", () => {
  it("answers a clear error naming the missing extension, and stores nothing", async () => {
    const res = await upsertJson(docsQa);
    expect(res.status).toBe(503);
    expect(res.json.error.code).toBe("not_configured");
    expect(res.json.error.message).toContain('PostgreSQL extension "vector" (pgvector)');
    expect(res.json.error.message).toContain("Keyword Store");
    expect(await counts(docsQa)).toEqual({});
  });
});
