import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { embedText } from "../../../dev/model-stub/embeddings";
import { createModelStub, type ModelStub } from "../../../dev/model-stub/server";
import { resetEnvForTests } from "../../env";
import { testContext } from "../../flow/__fixtures__/graphs";
import { createModelFetch } from "../../security/outbound-policy";
import { getDefinition } from "../registry";
import { googleGenerativeAiEmbeddings } from ".";
import type { GeminiEmbeddings } from "./gemini-embeddings";

// The model stub speaks batchEmbedContents (one request per text, at most 100, each naming the
// path's model); the node's client is Google's own (@google/genai).
let stub: ModelStub;

beforeAll(async () => {
  stub = await createModelStub({ apiKey: "g-key", embeddingDimensions: 16 });
  process.env.OUTBOUND_ALLOW_HOSTS = new URL(stub.origin).host;
  resetEnvForTests();
});
afterAll(() => stub.close());

const embeddings = async (inputs: Record<string, unknown> = {}) => {
  const params = paramsSchemaFor(getDefinition("googleGenerativeAiEmbeddings")!).parse({ credential: "g1", ...inputs });
  const ctx = {
    ...testContext({
      g1: { name: "Gemini key", type: "googleGenerativeAI", data: { apiKey: "g-key", baseURL: stub.origin } },
    }),
    modelFetch: createModelFetch,
  };
  return (await googleGenerativeAiEmbeddings.runtime({
    nodeId: "e",
    label: "Gemini embeddings",
    params,
    inputs: {},
    ctx,
  })) as GeminiEmbeddings;
};

const sentTexts = (i: number) =>
  (stub.requests[i].body as { requests: { content: { parts: { text: string }[] } }[] }).requests.map(
    (r) => r.content.parts[0].text,
  );

describe("Google Gemini embeddings node", () => {
  it("embeds documents in batches of batchSize, in order, with the task type and dimensions asked", async () => {
    const before = stub.requests.length;
    const texts = ["one\nline", "two", "three", "four", "five"];
    const vectors = await (
      await embeddings({ batchSize: 2, taskType: "CLUSTERING", outputDimensionality: 8, stripNewLines: true })
    ).embedDocuments(texts);
    expect(vectors).toHaveLength(5);
    expect(vectors[1]).toEqual(Array.from(embedText("two", 8)));
    expect(vectors[0]).toEqual(Array.from(embedText("one line", 8)));
    expect(stub.requests.length - before).toBe(3);
    expect([sentTexts(before), sentTexts(before + 1), sentTexts(before + 2)]).toEqual([
      ["one line", "two"],
      ["three", "four"],
      ["five"],
    ]);
    expect(stub.requests[before]).toMatchObject({
      path: "/v1beta/models/gemini-embedding-001:batchEmbedContents",
      apiKey: "g-key",
      body: {
        requests: Array.from({ length: 2 }, () =>
          expect.objectContaining({
            model: "models/gemini-embedding-001",
            taskType: "CLUSTERING",
            outputDimensionality: 8,
          }),
        ),
      },
    });
  });

  it("embeds a query alone, the model's own size and no task type when unspecified", async () => {
    const vector = await (await embeddings({ modelName: "text-embedding-004" })).embedQuery("Where is my parcel?");
    expect(vector).toEqual(Array.from(embedText("Where is my parcel?", 16)));
    const sent = stub.requests.at(-1)!;
    expect(sent.path).toBe("/v1beta/models/text-embedding-004:batchEmbedContents");
    expect((sent.body as { requests: Record<string, unknown>[] }).requests[0]).not.toHaveProperty("taskType");
  });

  it("a provider error names the node and Google's reason", async () => {
    // More than Google takes in one call: the stub answers 400 as Google does.
    const model = await embeddings({ batchSize: 100 });
    (model as unknown as { fields: { batchSize: number } }).fields.batchSize = 101;
    const err = await model.embedDocuments(Array.from({ length: 101 }, (_, i) => `t${i}`)).catch((e) => e);
    expect(err).toMatchObject({ code: "upstream_error", details: { status: 400 } });
    expect(err.message).toMatch(/Gemini embeddings.*at most 100 requests/);
  });
});
