import { readFileSync } from "node:fs";
import path from "node:path";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/common/errors";
import { fixtureLaptops } from "../../../dev/product-api/catalog";
import { createProductApi, type ProductApi } from "../../../dev/product-api/server";
import { productSearchSpec } from "../../../dev/product-api/spec";
import { testContext } from "../../flow/__fixtures__/graphs";
import { runEndingChain } from "../../flow/run";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import type { OpenApiChain } from "./chain";
import { openApiChain } from ".";
import { parseOpenApiSpec, toToolDefinition } from "./spec";

let api: ProductApi;
beforeAll(async () => {
  api = await createProductApi({ catalog: fixtureLaptops() });
});
afterAll(() => api.close());

async function chainWith(model: ReturnType<typeof fakeModel>, extra: Record<string, unknown> = {}) {
  const params = paramsSchemaFor(getDefinition("openApiChain")!).parse({
    spec: productSearchSpec,
    serverUrl: api.url,
    ...extra,
  });
  return (await openApiChain.runtime({
    nodeId: "api",
    label: "Product API",
    params,
    inputs: { model },
    ctx: testContext(),
  })) as OpenApiChain;
}

const ask = (chain: OpenApiChain, question: string) => runEndingChain(chain, { question, history: [] }, false);

describe("OpenAPI spec parsing", () => {
  it("turns each operation into a tool with required params and enums", () => {
    const spec = parseOpenApiSpec(productSearchSpec, "test");
    expect(spec.title).toBe("Product Search API");
    expect(spec.serverUrl).toBe("http://127.0.0.1:4010");
    const tool = toToolDefinition(spec.operations[0]);
    expect(tool.function.name).toBe("productsUsingGET");
    expect(tool.function.parameters.required).toEqual(["countryCode", "q"]);
    expect(tool.function.parameters.properties.countryCode).toMatchObject({ enum: ["US", "GB", "DE", "SE", "DK"] });
    expect(tool.function.parameters.properties.max_price).toMatchObject({ type: "integer" });
  });

  it("reads the shared example spec flows/specs/product-search.yaml the same way", () => {
    const shared = readFileSync(path.join(process.cwd(), "flows/specs/product-search.yaml"), "utf8");
    const tool = toToolDefinition(parseOpenApiSpec(shared, "shared").operations[0]);
    expect(tool.function.name).toBe("productsUsingGET");
    expect(tool.function.parameters.required).toEqual(expect.arrayContaining(["countryCode", "q"]));
  });

  it("refuses a document that is not OpenAPI 3", () => {
    expect(() => parseOpenApiSpec("swagger: '2.0'\npaths: {}", "Node X")).toThrow(/Node X: not an OpenAPI 3/);
  });
});

describe("OpenAPI chain", () => {
  it("calls the operation chosen by the model and answers from the response", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "productsUsingGET", args: { countryCode: "DE", q: "laptop", max_price: "1500" } }])
      .respond(new AIMessage("The ThinkBook 14 (899.00) and the ZenBook Pro (1399.00)."));
    const before = api.requests.length;
    const result = await ask(await chainWith(model), "Laptops under 1500 euros in Germany?");
    expect(result.text).toContain("ThinkBook 14");
    const req = api.requests.slice(before);
    expect(req).toHaveLength(1);
    expect(req[0].method).toBe("GET");
    expect(req[0].query).toEqual({ countryCode: "DE", q: "laptop", max_price: "1500" });
    expect(result.usedTools).toEqual([
      {
        tool: "productsUsingGET",
        toolInput: { countryCode: "DE", q: "laptop", max_price: 1500 },
        toolOutput: expect.stringContaining("ZenBook Pro"),
      },
    ]);
    const answerCall = model.calls[1].messages.map((m) => m.text).join("\n");
    expect(answerCall).toContain("ThinkBook 14");
    expect(answerCall).not.toContain("MacBook");
  });

  it("answers small talk with openapi_no_operation (422)", async () => {
    const model = fakeModel().respond(new AIMessage("Hello! How can I help?"));
    const err = await ask(await chainWith(model), "hi there").catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("openapi_no_operation");
    expect(err.status).toBe(422);
    expect(err.message).toContain("'Product Search API'");
    expect(err.message).toContain("Chain Tool under a Tool Agent");
  });

  it("refuses arguments outside the spec before any request", async () => {
    const model = fakeModel().respondWithTools([
      { name: "productsUsingGET", args: { countryCode: "FR", q: "laptop", size: 2.5 } },
    ]);
    const before = api.requests.length;
    const err = await ask(await chainWith(model), "laptops in France").catch((e) => e);
    expect(err.code).toBe("validation_failed");
    expect(err.message).toContain("countryCode must be one of US, GB, DE, SE, DK");
    expect(err.message).toContain("size must be an integer");
    expect(api.requests.length).toBe(before);
  });

  it("turns an upstream 503 into upstream_unavailable", async () => {
    const model = fakeModel().respondWithTools([{ name: "productsUsingGET", args: { countryCode: "US", q: "phone" } }]);
    api.setUnavailable(true);
    try {
      const err = await ask(await chainWith(model), "phones in the US").catch((e) => e);
      expect(err.code).toBe("upstream_unavailable");
      expect(err.status).toBe(503);
    } finally {
      api.setUnavailable(false);
    }
  });

  it("only calls the spec's server, with the operation's method", async () => {
    const model = fakeModel().respondWithTools([
      { name: "productsUsingGET", args: { countryCode: "US", q: "phone", url: "http://evil.example/" } },
    ]);
    model.respond(new AIMessage("ok"));
    const before = api.requests.length;
    await ask(await chainWith(model), "phones");
    expect(api.requests.slice(before).map((r) => "url" in r.query)).toEqual([false]);
  });

  it("uses the history of a connected memory when choosing the operation", async () => {
    const model = fakeModel().respond(new AIMessage("no call"));
    const params = paramsSchemaFor(getDefinition("openApiChain")!).parse({
      spec: productSearchSpec,
      serverUrl: api.url,
    });
    const memory = { memoryType: "Buffer Memory", messagesFor: () => [new HumanMessage("I live in Sweden")] };
    const chain = (await openApiChain.runtime({
      nodeId: "a",
      label: "A",
      params,
      inputs: { model, memory },
      ctx: testContext(),
    })) as OpenApiChain;
    await runEndingChain(
      chain,
      { question: "phones?", history: [{ role: "userMessage", content: "I live in Sweden" }] },
      false,
    ).catch(() => {});
    expect(model.calls[0].messages.map((m) => m.text)).toContain("I live in Sweden");
  });
});
