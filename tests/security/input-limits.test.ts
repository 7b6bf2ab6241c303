// Caller input that passed the schemas but broke at the database: page numbers whose offset is
// beyond what PostgreSQL (or Prisma) takes, and long strings into btree-indexed columns (an index
// row holds at most ~2,700 bytes), chunks whose search index passes the tsvector cap, and lone
// surrogates, which jsonb refuses. Each now answers 4xx naming the field and changes nothing.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as chatflows from "../../app/api/v1/chatflows/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as credentials from "../../app/api/v1/credentials/route";
import * as domains from "../../app/api/v1/domains/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as messages from "../../app/api/v1/chatmessage/[id]/route";
import * as sessions from "../../app/api/v1/chatmessage/[id]/sessions/route";
import * as upsert from "../../app/api/v1/vector/upsert/[id]/route";
import { getDb } from "../../lib/db/client";
import { encryptJson } from "../../lib/security/secrets";
import { createChatflow } from "../../lib/services/chatflows";
import { setupFirstAdmin } from "../../lib/services/users";
import { systemCaller } from "../../dev/callers";
import { exampleFlow } from "../../dev/flows";
import { multiStoreGraph } from "../support/docs-flows";
import { auth, call } from "../support/http";
import { databaseHasPgvector } from "../support/pgvector";
import { createModelStub, type ModelStub } from "../../dev/model-stub/server";
import { startServerModelStub } from "../support/server-model-stub";

let stub: ModelStub;
let admin: Record<string, string>;
let flowId: string;

beforeAll(async () => {
  stub = await startServerModelStub();
  const adminId = (await setupFirstAdmin({ email: "admin@limits.test", name: "Ada", password: "limits-pass-1" })).id;
  admin = await auth.session(adminId);
  flowId = (
    await createChatflow({ name: "limits", graph: exampleFlow("conversation.json").graph as never }, systemCaller)
  ).id;
});
afterAll(() => stub.close());

/** Random letters from a 3-byte UTF-8 range: they do not compress, so the index sees every byte. */
const incompressible = (chars: number) =>
  Array.from(randomBytes(chars), (b) => String.fromCharCode(0x4e00 + b * 37)).join("");

describe("long strings into btree-indexed columns", () => {
  it("a domain name longer than a host name can be (here 2,048 CJK characters): 400 naming the entry, nothing stored", async () => {
    const before = await (await getDb()).domain.count();
    const one = await call(domains.POST, { method: "POST", headers: admin, body: { name: incompressible(2048) } });
    expect(one.status, one.text).toBe(400);
    expect(one.json.error.message).toMatch(/^body\.name: longer than 253 characters/);
    const many = await call(domains.POST, {
      method: "POST",
      headers: admin,
      body: { names: ["example.com", `https://${"a".repeat(254)}.com/path`] },
    });
    expect(many.status, many.text).toBe(400);
    expect(many.json.error.message).toMatch(/^body\.names\.1: longer than 253 characters/);
    expect(await (await getDb()).domain.count()).toBe(before);
    // A long URL whose host is short is still fine: only the host is stored.
    const url = await call(domains.POST, {
      method: "POST",
      headers: admin,
      body: { name: `https://shop.example.com/${"p".repeat(1500)}` },
    });
    expect(url.status, url.text).toBe(200);
    expect(url.json.added).toBe(1);
  });

  it("a loader's source name over 300 characters: 422 naming the node input on upsert, nothing stored", async () => {
    const graph = multiStoreGraph({ chatUrl: stub.url });
    const inputs = graph.nodes.find((n) => n.id === "textLoader")!.data.inputs as Record<string, unknown>;
    Object.assign(inputs, { file: "Opening hours: nine to five.", sourceName: incompressible(5000) });
    const id = (await createChatflow({ name: "long source", graph: graph as never }, systemCaller)).id;
    const res = await call(upsert.POST, { method: "POST", headers: admin, params: { id }, body: {} });
    expect(res.status, res.text).toBe(422);
    expect(res.json.error.message).toContain('input "Source name" is not valid');
    expect(res.json.error.message).toContain("300");
    expect(await (await getDb()).documentChunk.count({ where: { chatflowId: id } })).toBe(0);
    inputs.sourceName = incompressible(300);
    await (await getDb()).chatflow.update({
      where: { id },
      data: { graph: graph as never, version: { increment: 1 } },
    });
    const ok = await call(upsert.POST, { method: "POST", headers: admin, params: { id }, body: {} });
    expect(ok.status, ok.text).toBe(200);
  });
});

describe("chunk size", () => {
  /** Distinct short words (base-36 counters): the most tsvector per byte of text, filled to `bytes`. */
  const distinctWords = (bytes: number) => {
    let text = "";
    for (let i = 0; text.length < bytes; i++) text += `${i.toString(36)} `;
    return text.slice(0, bytes);
  };
  const upsertUnsplit = async (text: string) => {
    const graph = multiStoreGraph({ chatUrl: stub.url });
    graph.edges = graph.edges.filter((e) => !(e.source === "splitter" && e.target === "textLoader"));
    (graph.nodes.find((n) => n.id === "textLoader")!.data.inputs as Record<string, unknown>).file = text;
    const id = (await createChatflow({ name: "unsplit", graph: graph as never }, systemCaller)).id;
    return { id, res: await call(upsert.POST, { method: "POST", headers: admin, params: { id }, body: {} }) };
  };

  it("a chunk whose search index would pass PostgreSQL's 1 MiB tsvector cap (no splitter): 422 naming the store and the fix, nothing stored", async () => {
    const { id, res } = await upsertUnsplit(distinctWords(1024 * 1024));
    expect(res.status, res.text).toBe(422);
    expect(res.json.error.message).toContain("Store node keywordStore");
    expect(res.json.error.message).toContain("connect a text splitter");
    expect(await (await getDb()).documentChunk.count({ where: { chatflowId: id } })).toBe(0);
  });

  it("a big chunk of long words whose index fits is still stored", async () => {
    const { id, res } = await upsertUnsplit("Lorem ipsum dolor sit amet consectetur. ".repeat(20_000));
    expect(res.status, res.text).toBe(200);
    expect(await (await getDb()).documentChunk.count({ where: { chatflowId: id } })).toBe(1);
  });
});

describe("lone surrogates in a JSON body", () => {
  it("an unpaired \\ud800 escape in a field or a key: 400 naming it, no chatflow saved (jsonb refused it with a 500)", async () => {
    const before = await (await getDb()).chatflow.count();
    const graph = exampleFlow("conversation.json").graph;
    const post = (body: object) => call(chatflows.POST, { method: "POST", headers: admin, body });
    const inLabel = structuredClone(graph);
    inLabel.nodes[0].data.label = "model \ud800";
    const label = await post({ name: "flow", graph: inLabel });
    expect(label.status, label.text).toBe(400);
    expect(label.json.error.message).toBe(
      "body.graph.nodes.0.data.label: must not contain a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape).",
    );
    const key = await post({ name: "flow", graph, chatbotConfig: { theme: { "x\udc00": "red" } } });
    expect(key.status, key.text).toBe(400);
    expect(key.json.error.message).toBe("body.chatbotConfig.theme: a key must not contain a lone UTF-16 surrogate.");
    expect(await (await getDb()).chatflow.count()).toBe(before);
    const paired = await post({ name: "flow 😀", graph });
    expect(paired.status, paired.text).toBe(201);
  });
});

describe("what pgvector cannot store", () => {
  it("an embeddings model answering 16,001-dimension vectors: 502 naming the model's answer and the limit, nothing stored", async (ctx) => {
    // Only a database with pgvector stores vectors (PGlite has it; a PostgreSQL server may not, and
    // then the vector store refuses before any embedding): runs in the PGlite pass of `npm test`.
    if (!(await databaseHasPgvector())) return ctx.skip();
    const wide = await createModelStub({ embeddingDimensions: 16_001 });
    try {
      const graph = multiStoreGraph({ chatUrl: stub.url, embeddingsUrl: wide.url });
      (graph.nodes.find((n) => n.id === "textLoader")!.data.inputs as Record<string, unknown>).file =
        "Opening hours: nine to five.";
      const id = (await createChatflow({ name: "wide vectors", graph: graph as never }, systemCaller)).id;
      const res = await call(upsert.POST, {
        method: "POST",
        headers: admin,
        params: { id },
        body: { stopNodeId: "vectorStore" },
      });
      expect(res.status, res.text).toBe(502);
      expect(res.json.error.message).toBe(
        "The embeddings model returned a 16001-dimension vector; the vector store holds 1 to 16000 dimensions.",
      );
      expect(await (await getDb()).documentChunk.count({ where: { chatflowId: id } })).toBe(0);
    } finally {
      await wide.close();
    }
  });
});

describe("credential values sent as HTTP headers", () => {
  it("an API key or header value with a line break or non-ASCII characters: 400 naming the field, nothing saved", async () => {
    const before = await (await getDb()).credential.count();
    const create = (type: string, data: object) =>
      call(credentials.POST, { method: "POST", headers: admin, body: { name: "bad", type, data } });
    for (const apiKey of ["sk-ключ", "sk-a\r\nX-Evil: 1"]) {
      const res = await create("openai", { apiKey });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.message).toBe(
        "API key must be printable ASCII without line breaks (it is sent in an HTTP header).",
      );
      expect(res.json.error.details[0].field).toBe("body.data.apiKey");
    }
    const headers = await create("httpHeaders", { allowedHosts: ["api.example.com"], headers: { "X-Token": "a\nb" } });
    expect(headers.status, headers.text).toBe(400);
    expect(headers.json.error.message).toContain('Headers "X-Token" must be printable ASCII');
    expect(headers.json.error.details[0].field).toBe("body.data.headers.X-Token");
    expect(await (await getDb()).credential.count()).toBe(before);
  });

  it("a credential saved before the check, holding a non-ASCII key: a run using it is 422 naming it (it was a 500 inside fetch)", async () => {
    const row = await (await getDb()).credential.create({
      data: { name: "legacy key", type: "openai", encrypted: encryptJson({ apiKey: "sk-ключ", baseURL: stub.url }) },
    });
    const graph = exampleFlow("conversation.json").graph;
    graph.nodes.find((n) => n.type === "chatOpenAICompatible")!.data.inputs.credential = row.id;
    const id = (await createChatflow({ name: "legacy key", graph: graph as never }, systemCaller)).id;
    const res = await call(prediction.POST, {
      method: "POST",
      headers: admin,
      params: { id },
      body: { question: "hi" },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.json.error.message).toBe(
      'Credential "legacy key": apiKey holds a line break or a non-ASCII character, which an HTTP header cannot carry; edit the credential.',
    );
  });
});

describe("numbers beyond an integer column", () => {
  it("PUT a chatflow with expectedVersion past 2^31-1: 400 naming it, nothing changed (it reached SQL as an int4 and failed with a 500)", async () => {
    const before = await (await getDb()).chatflow.findUniqueOrThrow({ where: { id: flowId } });
    for (const expectedVersion of [2_147_483_648, Number.MAX_SAFE_INTEGER]) {
      const res = await call(chatflowById.PUT, {
        method: "PUT",
        headers: admin,
        params: { id: flowId },
        body: { name: "renamed", expectedVersion },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.message).toBe("Expected version must be at most 2147483647.");
      expect(res.json.error.details[0].field).toBe("body.expectedVersion");
    }
    expect(await (await getDb()).chatflow.findUniqueOrThrow({ where: { id: flowId } })).toEqual(before);
    const stale = await call(chatflowById.PUT, {
      method: "PUT",
      headers: admin,
      params: { id: flowId },
      body: { name: "renamed", expectedVersion: 2_147_483_647 },
    });
    expect(stale.status, stale.text).toBe(409);
  });
});

describe("page numbers up to the largest safe integer", () => {
  it("list domains, messages and sessions far beyond the last page: 200 and an empty page", async () => {
    const page = "9007199254740991";
    const list = await call(domains.GET, { headers: admin, path: `/api/v1/domains?page=${page}&limit=100` });
    expect(list.status, list.text).toBe(200);
    expect(list.json.data).toEqual([]);
    const msgs = await call(messages.GET, {
      headers: admin,
      params: { id: flowId },
      path: `/x?page=${page}&limit=1000`,
    });
    expect(msgs.status, msgs.text).toBe(200);
    expect(msgs.json).toEqual([]);
    const sess = await call(sessions.GET, {
      headers: admin,
      params: { id: flowId },
      path: `/x?page=${page}&limit=100`,
    });
    expect(sess.status, sess.text).toBe(200);
    expect(sess.json.data).toEqual([]);
  });
});
