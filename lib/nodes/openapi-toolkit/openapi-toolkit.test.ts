import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { createRecordingServer, type RecordingServer } from "../../../tests/support/recording-server";
import { testContext } from "../../flow/__fixtures__/graphs";
import { runEndingChain } from "../../flow/run";
import { getDefinition } from "../registry";
import type { RuntimeArgs } from "../runtime-types";
import { toolAgent } from "../tool-agent";
import type { ToolAgentChain } from "../tool-agent/agent";
import { openApiToolkit } from ".";

// The OpenAPI Toolkit against a real HTTP server: every operation a tool, arguments checked against
// the spec before anything is sent, a failing call an observation the agent goes on from.

const spec = `
openapi: 3.0.1
info: { title: Pet Store }
servers: [{ url: "http://pets.example" }]
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      summary: One pet by id
      parameters:
        - { name: petId, in: path, required: true, schema: { type: integer } }
  /pets:
    get:
      operationId: listPets
      parameters:
        - { name: kind, in: query, schema: { type: string, enum: [cat, dog] } }
    post:
      operationId: addPet
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, properties: { name: { type: string } }, required: [name] }
`;

let api: RecordingServer;
beforeAll(async () => {
  api = await createRecordingServer((req, res) => {
    if (req.url === "/pets/7") return res.end('{"id":7,"name":"Tom"}');
    if (req.url === "/pets/404") return res.writeHead(404).end('{"error":"no such pet"}');
    res.end('[{"id":1,"name":"Rex"}]');
  });
});
afterAll(() => api.close());

const args = (type: string, params: Record<string, unknown>, inputs: Record<string, unknown>): RuntimeArgs => ({
  nodeId: type,
  label: type,
  params: paramsSchemaFor(getDefinition(type)!).parse(params),
  inputs,
  ctx: testContext(),
});

const toolkit = async (extra: Record<string, unknown> = {}) =>
  (await openApiToolkit.runtime(
    args("openApiToolkit", { spec, serverUrl: api.origin, ...extra }, {}),
  )) as StructuredToolInterface[];

describe("OpenAPI Toolkit", () => {
  it("makes one tool per operation, named by operationId, with the spec's parameters", async () => {
    const tools = await toolkit();
    expect(tools.map((t) => t.name)).toEqual(["getPet", "listPets", "addPet"]);
    expect(tools[0].description).toBe("One pet by id");
  });

  it("an agent calls the operations it picks; the requests are built from the spec", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "getPet", args: { petId: 7 }, id: "c1" }])
      .respondWithTools([{ name: "addPet", args: { requestBody: { name: "Kit" } }, id: "c2" }])
      .respond(new AIMessage("Pet 7 is Tom; Kit was added."));
    const agent = (await toolAgent.runtime(
      args("toolAgent", {}, { model, tools: [await toolkit()] }),
    )) as ToolAgentChain;
    const before = api.requests.length;
    const result = await runEndingChain(agent, { question: "who is pet 7? add Kit", history: [] }, false);
    expect(result.text).toBe("Pet 7 is Tom; Kit was added.");
    expect(api.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(["GET /pets/7", "POST /pets"]);
    expect(result.usedTools).toEqual([
      {
        tool: "getPet",
        toolInput: { petId: 7 },
        toolOutput: '{"id":7,"name":"Tom"}',
      },
      {
        tool: "addPet",
        toolInput: { requestBody: { name: "Kit" } },
        toolOutput: '[{"id":1,"name":"Rex"}]',
      },
    ]);
  });

  it("arguments outside the spec and failing calls are tool errors the agent reads; nothing bad is sent", async () => {
    const model = fakeModel()
      .respondWithTools([{ name: "listPets", args: { kind: "horse" }, id: "c1" }])
      .respondWithTools([{ name: "getPet", args: { petId: 404 }, id: "c2" }])
      .respond(new AIMessage("I could not find that."));
    const agent = (await toolAgent.runtime(
      args("toolAgent", {}, { model, tools: [await toolkit()] }),
    )) as ToolAgentChain;
    const before = api.requests.length;
    const result = await runEndingChain(agent, { question: "horses? pet 404?", history: [] }, false);
    expect(result.text).toBe("I could not find that.");
    expect(api.requests.slice(before).map((r) => r.url)).toEqual(["/pets/404"]);
    const observations = model.calls[2].messages.filter((m) => m instanceof ToolMessage).map((m) => m.text);
    expect(observations[0]).toMatch(/^Tool error: .*/);
    expect(observations[0]).toMatch(/horse|enum|cat, dog/);
    expect(observations[1]).toMatch(/^Tool error: The API "Pet Store" .*HTTP 404/);
  });

  it("Return direct: the API's answer is the agent's answer", async () => {
    const model = fakeModel().respondWithTools([{ name: "getPet", args: { petId: 7 }, id: "c1" }]);
    const agent = (await toolAgent.runtime(
      args("toolAgent", {}, { model, tools: [await toolkit({ returnDirect: true })] }),
    )) as ToolAgentChain;
    const result = await runEndingChain(agent, { question: "pet 7", history: [] }, false);
    expect(result.text).toBe('{"id":7,"name":"Tom"}');
  });

  it("refuses a spec without operations, naming the node", async () => {
    const empty = "openapi: 3.0.1\ninfo: { title: Empty }\npaths: {}";
    await expect(openApiToolkit.runtime(args("openApiToolkit", { spec: empty }, {}))).rejects.toThrow(
      /openApiToolkit: the OpenAPI spec "Empty" has no operations/,
    );
  });
});
