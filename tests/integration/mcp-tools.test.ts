import type { StructuredToolInterface } from "@langchain/core/tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, auth } from "../support/http";
import { createMcpTestServer, type McpTestServer } from "../support/mcp-test-server";
import { closedPort } from "../support/recording-server";
import * as importRoute from "../../app/api/v1/chatflows/import/route";
import * as chatflowById from "../../app/api/v1/chatflows/[id]/route";
import * as prediction from "../../app/api/v1/prediction/[id]/route";
import * as nodeOptions from "../../app/api/v1/nodes/[name]/options/route";
import { createModelStub, scriptedBrain, type ModelStub } from "../../dev/model-stub/server";
import { testContext } from "../../lib/flow/__fixtures__/graphs";
import { resetEnvForTests } from "../../lib/env";
import { mcpTools } from "../../lib/nodes/mcp-tools";
import { getDefinition } from "../../lib/nodes/registry";
import { setupFirstAdmin } from "../../lib/services/users";
import type { ResolvedCredential } from "../../lib/security/credential-hosts";
import { paramsSchemaFor } from "@/common/nodes/params";
import type { Graph } from "@/common/schemas/graph";

// The MCP Tools node against a local MCP server built with the SDK: Streamable HTTP and the older
// SSE transport, picked tools, headers from a credential, the outbound rules, and a server that is
// down, slow or not an MCP server at all (502/504 naming it, never a hang).

let mcp: McpTestServer;
let stub: ModelStub;
let session: Record<string, string>;

beforeAll(async () => {
  [mcp, stub] = await Promise.all([createMcpTestServer(), createModelStub()]);
  Object.assign(process.env, { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: stub.url, OPENAI_MODEL: "stub-model" });
  resetEnvForTests();
  const admin = await setupFirstAdmin({ email: "owner@example.com", name: "Owner", password: "owner-pass-1" });
  session = await auth.session(admin.id);
});
afterAll(() => Promise.all([mcp.close(), stub.close()]));

const build = (params: Record<string, unknown>, credentials: Record<string, ResolvedCredential> = {}) =>
  mcpTools.runtime({
    nodeId: "mcp_0",
    label: "Weather MCP",
    params: paramsSchemaFor(getDefinition("mcpTools")!).parse(params),
    inputs: {},
    ctx: testContext(credentials),
  }) as Promise<StructuredToolInterface[]>;

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as { code: string; status: number; message: string },
  );

describe("MCP Tools node", () => {
  it("lists the tools of a Streamable HTTP server and calls them", async () => {
    const tools = await build({ serverUrl: `${mcp.origin}/mcp` });
    expect(tools.map((t) => t.name)).toEqual(["get_forecast", "get_alerts"]);
    expect(tools[0].description).toBe("The weather forecast of a city");
    expect(await tools[0].invoke({ city: "Oslo" })).toBe("Sunny in Oslo, 21 °C");
    expect(mcp.calls.at(-1)).toMatchObject({ tool: "get_forecast", args: { city: "Oslo" } });
  });

  it("falls back to the SSE transport for a server of the older protocol", async () => {
    const tools = await build({ serverUrl: `${mcp.origin}/sse`, tools: ["get_alerts"] });
    expect(tools.map((t) => t.name)).toEqual(["get_alerts"]);
    expect(await tools[0].invoke({ region: "Alps" })).toBe("No alerts for Alps");
    expect(mcp.calls.at(-1)).toMatchObject({ tool: "get_alerts", args: { region: "Alps" } });
  });

  it("a tool result marked as an error is thrown (the agent reads it as a tool error)", async () => {
    const [, alerts] = await build({ serverUrl: `${mcp.origin}/mcp` });
    await expect(alerts.invoke({ region: "nowhere" })).rejects.toThrow("No alerts for nowhere");
  });

  it("sends the credential's headers, and only to a host the credential lists", async () => {
    const host = new URL(mcp.origin).host;
    const cred = (allowedHosts: string[]): ResolvedCredential => ({
      name: "MCP token",
      type: "httpHeaders",
      data: { allowedHosts, headers: { Authorization: "Bearer mcp-secret" } },
    });
    const [forecast] = await build(
      { serverUrl: `${mcp.origin}/mcp`, headersCredential: "h1", tools: ["get_forecast"] },
      { h1: cred([host]) },
    );
    await forecast.invoke({ city: "Bergen" });
    expect(mcp.calls.at(-1)).toMatchObject({ tool: "get_forecast", authorization: "Bearer mcp-secret" });
    const before = mcp.calls.length;
    const err = await failure(
      build({ serverUrl: `${mcp.origin}/mcp`, headersCredential: "h1" }, { h1: cred(["mcp.example.com"]) }),
    );
    expect(err.code).toBe("forbidden");
    expect(err.message).toContain('credential "MCP token" may only be sent to mcp.example.com');
    expect(mcp.calls.length).toBe(before);
  });

  it("refuses a picked tool the server does not have, naming what it offers", async () => {
    const err = await failure(build({ serverUrl: `${mcp.origin}/mcp`, tools: ["get_forecast", "delete_city"] }));
    expect(err.code).toBe("invalid_graph");
    expect(err.message).toBe(
      'Weather MCP: the MCP server has no tool named "delete_city"; it offers: get_forecast, get_alerts.',
    );
  });

  it("a server that is down or not an MCP server is 502 naming it; a silent one 504 after the timeout", async () => {
    const down = `http://127.0.0.1:${await closedPort()}/mcp`;
    const refused = await failure(build({ serverUrl: down }));
    expect([refused.code, refused.status]).toEqual(["upstream_error", 502]);
    expect(refused.message).toContain(`Weather MCP: the MCP server ${down} failed`);
    const garbage = await failure(build({ serverUrl: `${mcp.origin}/garbage` }));
    expect([garbage.code, garbage.status]).toEqual(["upstream_error", 502]);
    expect(garbage.message).toContain(`the MCP server ${mcp.origin}/garbage failed`);
    const silent = await failure(build({ serverUrl: `${mcp.origin}/hang`, timeoutSeconds: 1 }));
    expect([silent.code, silent.status]).toEqual(["upstream_timeout", 504]);
    expect(silent.message).toBe(`Weather MCP: the MCP server ${mcp.origin}/hang did not answer within 1 s.`);
  });

  it("a private server needs the operator's allowance, like every outbound request", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OUTBOUND_ALLOW_PRIVATE: "false", OUTBOUND_ALLOW_HOSTS: "" });
    resetEnvForTests();
    const before = mcp.calls.length;
    try {
      const err = await failure(build({ serverUrl: `${mcp.origin}/mcp` }));
      expect(err.code).toBe("forbidden");
      expect(err.message).toContain("OUTBOUND_ALLOW_HOSTS");
    } finally {
      process.env = saved;
      resetEnvForTests();
    }
    expect(mcp.calls.length).toBe(before);
  });
});

describe("an imported Flowise agent with Custom MCP tools", () => {
  it("imports customMCP with its server URL and actions, and the agent calls the picked tool", async () => {
    const flowise = {
      nodes: [
        {
          id: "chatOpenAI_0",
          position: { x: 0, y: 0 },
          data: { name: "chatOpenAI", label: "ChatOpenAI", inputs: { modelName: "gpt-4o-mini", temperature: 0 } },
        },
        {
          id: "customMCP_0",
          position: { x: 0, y: 300 },
          data: {
            name: "customMCP",
            label: "Custom MCP",
            inputs: {
              mcpServerConfig: JSON.stringify({ url: `${mcp.origin}/mcp` }),
              mcpActions: '["get_forecast"]',
            },
          },
        },
        {
          id: "toolAgent_0",
          position: { x: 400, y: 100 },
          data: {
            name: "toolAgent",
            label: "Tool Agent",
            inputs: {
              model: "{{chatOpenAI_0.data.instance}}",
              tools: ["{{customMCP_0.data.instance}}"],
              systemMessage: "You help with the weather.",
            },
          },
        },
      ],
      edges: [],
    };
    const res = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: { name: "MCP agent", ...flowise },
    });
    expect(res.status, res.text.slice(0, 400)).toBe(201);
    const graph = structuredClone(res.json.graph) as Graph;
    expect(graph.nodes.find((n) => n.id === "customMCP_0")).toMatchObject({
      type: "mcpTools",
      data: { inputs: { serverUrl: `${mcp.origin}/mcp`, tools: ["get_forecast"] } },
    });
    graph.nodes.find((n) => n.id === "chatOpenAI_0")!.data.inputs.baseURL = stub.url;
    const saved = await call(chatflowById.PUT, {
      method: "PUT",
      params: { id: res.json.id },
      headers: session,
      body: { graph },
    });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);

    stub.setBrain(
      scriptedBrain([
        { toolCalls: [{ name: "get_forecast", arguments: { city: "Tromsø" } }] },
        { content: "It is sunny in Tromsø." },
      ]),
    );
    const before = stub.requests.length;
    const answer = await call(prediction.POST, {
      method: "POST",
      params: { id: res.json.id },
      headers: session,
      body: { question: "Weather in Tromsø?" },
    });
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.json.text).toBe("It is sunny in Tromsø.");
    expect(answer.json.usedTools).toMatchObject([
      { tool: "get_forecast", toolInput: { city: "Tromsø" }, toolOutput: "Sunny in Tromsø, 21 °C" },
    ]);
    // The call's requests to the MCP server are listed with it (issue 38, point 3).
    const requests = answer.json.usedTools[0].requests as { method: string; url: string; status: number }[];
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests.map((r) => r.url))).toEqual(new Set([`${mcp.origin}/mcp`]));
    expect(requests.some((r) => r.method === "POST" && r.status === 200)).toBe(true);
    const offered = (stub.requests[before].body as { tools: { function: { name: string } }[] }).tools;
    expect(offered.map((t) => t.function.name)).toEqual(["get_forecast"]);
  });

  it("refuses a local (stdio) MCP server by name: no command is run", async () => {
    const res = await call(importRoute.POST, {
      method: "POST",
      headers: session,
      body: {
        name: "stdio MCP",
        nodes: [
          {
            id: "customMCP_0",
            position: { x: 0, y: 0 },
            data: {
              name: "customMCP",
              label: "Custom MCP",
              inputs: { mcpServerConfig: '{"command": "npx", "args": ["-y", "some-mcp-server"]}', mcpActions: "[]" },
            },
          },
        ],
        edges: [],
      },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details.droppedInputs).toEqual([
      expect.objectContaining({
        nodeId: "customMCP_0",
        input: "mcpServerConfig",
        reason: expect.stringContaining("local command"),
      }),
    ]);
  });
});

describe("POST /api/v1/nodes/{name}/options: the tools the builder picks from", () => {
  const options = (name: string, body: object) =>
    call(nodeOptions.POST, { method: "POST", headers: session, params: { name }, body });

  it("lists the MCP server's tools for the node's Tools to offer", async () => {
    const res = await options("mcpTools", { input: "tools", params: { serverUrl: `${mcp.origin}/mcp` } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json).toEqual({
      options: [
        { name: "get_forecast", label: "get_forecast", description: "The weather forecast of a city" },
        { name: "get_alerts", label: "get_alerts", description: "Weather alerts of a region" },
      ],
    });
  });

  it("names what is wrong: a node or param without options (404), params the node refuses (400), a server down (502)", async () => {
    const none = await options("calculator", { input: "name", params: {} });
    expect([none.status, none.json.error.message]).toEqual([
      404,
      'The Calculator node has no options to load for "name".',
    ]);
    expect((await options("noSuchNode", { input: "tools" })).status).toBe(404);
    const bad = await options("mcpTools", { input: "tools", params: { serverUrl: "ftp://x" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain("body.params.serverUrl");
    const down = await options("mcpTools", {
      input: "tools",
      params: { serverUrl: `http://127.0.0.1:${await closedPort()}/mcp` },
    });
    expect(down.status).toBe(502);
    expect(down.json.error.message).toContain("MCP Tools: the MCP server http://127.0.0.1:");
    const unauthenticated = await call(nodeOptions.POST, {
      method: "POST",
      params: { name: "mcpTools" },
      body: { input: "tools" },
    });
    expect(unauthenticated.status).toBe(401);
  });
});
