import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { createModelStub, type ModelStub } from "../../../dev/model-stub/server";
import { testContext } from "../../flow/__fixtures__/graphs";
import { getDefinition, getNode } from "../registry";

let stub: ModelStub;
beforeAll(async () => {
  stub = await createModelStub({ apiKey: "emb-key", embeddingDimensions: 16 });
});
afterAll(() => stub.close());

type Embeddings = { embedDocuments(texts: string[]): Promise<number[][]>; embedQuery(text: string): Promise<number[]> };
async function build(
  type: string,
  credential: { type: string; data: Record<string, unknown> } | undefined,
  params: Record<string, unknown> = {},
) {
  const parsed = paramsSchemaFor(getDefinition(type)!).parse({
    ...(credential ? { credential: "c1" } : {}),
    ...params,
  });
  const ctx = testContext(credential ? { c1: { name: "Key", ...credential } } : {});
  return (await getNode(type)!.runtime({
    nodeId: "e",
    label: "Embeddings",
    params: parsed,
    inputs: {},
    ctx,
  })) as Embeddings;
}

describe("hosted embeddings", () => {
  it.each([
    ["mistralAIEmbeddings", "mistralAI", "mistral-embed"],
    ["togetherAIEmbeddings", "togetherAI", "BAAI/bge-base-en-v1.5"],
  ])("%s: POST /v1/embeddings with the credential's Bearer key and the model", async (type, credentialType, model) => {
    const before = stub.requests.length;
    const e = await build(type, { type: credentialType, data: { apiKey: "emb-key", baseURL: stub.url } });
    const vectors = await e.embedDocuments(["a", "b", "c"]);
    expect(vectors).toHaveLength(3);
    expect(vectors[0]).toHaveLength(16);
    const sent = stub.requests.slice(before);
    expect(sent.map((r) => [r.path, r.authorization])).toEqual([["/v1/embeddings", "Bearer emb-key"]]);
    expect(sent[0].body).toMatchObject({ model, input: ["a", "b", "c"] });
  });

  it("Azure OpenAI: the deployment's embeddings path with api-version and the api-key header", async () => {
    const before = stub.requests.length;
    const e = await build(
      "azureOpenAIEmbeddings",
      { type: "azureOpenAI", data: { apiKey: "emb-key", baseURL: stub.origin, apiVersion: "2024-06-01" } },
      { deployment: "embed-prod" },
    );
    expect(await e.embedQuery("hello")).toHaveLength(16);
    const sent = stub.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual(["/openai/deployments/embed-prod/embeddings"]);
    expect(sent[0].apiKey).toBe("emb-key");
  });

  it("Ollama: its OpenAI-compatible embeddings at the server's address, no key needed", async () => {
    const open = await createModelStub({ embeddingDimensions: 8 });
    try {
      const e = await build("ollamaEmbeddings", undefined, { baseUrl: open.origin, model: "nomic-embed-text" });
      expect(await e.embedQuery("hi")).toHaveLength(8);
      expect(open.requests.map((r) => r.path)).toEqual(["/v1/embeddings"]);
      expect(open.requests[0].body).toMatchObject({ model: "nomic-embed-text" });
    } finally {
      await open.close();
    }
  });

  it("needs the provider's own credential", () => {
    expect(paramsSchemaFor(getDefinition("mistralAIEmbeddings")!).safeParse({}).success).toBe(false);
  });
});
