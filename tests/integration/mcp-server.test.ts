// Issue 33: a flow as an MCP server. The official MCP SDK's Client, over its Streamable HTTP
// transport, against the real route handlers on 127.0.0.1 and flows answering through the scripted
// model: initialize, list the one tool, call it. Then what the endpoint refuses (tokens, disabled
// servers, browsers, malformed messages) and how the token is kept (hashed, rotated).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerModelStub } from "../support/server-model-stub";
import { auth, call } from "../support/http";
import { exampleFlow } from "../../dev/flows";
import { demoBrain, type ModelStub } from "../../dev/model-stub/server";
import { serveRoutes } from "../../dev/route-server";
import * as mcp from "../../app/api/v1/mcp/[chatflowId]/route";
import * as mcpServer from "../../app/api/v1/mcp-server/[id]/route";
import * as refresh from "../../app/api/v1/mcp-server/[id]/refresh/route";
import { createChatflow } from "../../lib/services/chatflows";
import { userCaller } from "../../dev/callers";
import { createUser } from "../../lib/services/users";
import { getDb } from "../../lib/db/client";
import { MCP_AUTH_FAILURES_PER_IP } from "../../lib/services/mcp-tool";

let stub: ModelStub;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let admin: Record<string, string>;
let chatflowId: string;
let formFlowId: string;

const ACCEPT = "application/json, text/event-stream";
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** An SDK client connected to a flow's endpoint with this token. */
async function connect(id: string, token: string): Promise<Client> {
  const client = new Client({ name: "switchyard-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/api/v1/mcp/${id}`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** A raw POST to a flow's endpoint (for the answers the SDK client hides behind an exception). */
function post(id: string, headers: Record<string, string>, body: string = JSON.stringify(INITIALIZE)) {
  return fetch(`${server.url}/api/v1/mcp/${id}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
    body,
  });
}

const HANDLERS = { GET: mcpServer.GET, POST: mcpServer.POST, PUT: mcpServer.PUT, DELETE: mcpServer.DELETE };
const manage = (method: keyof typeof HANDLERS, id: string, body?: object) =>
  call(HANDLERS[method], { method, params: { id }, headers: admin, body });

beforeAll(async () => {
  stub = await startServerModelStub();
  const user = await createUser({
    email: "mcp-admin@example.invalid",
    name: "A",
    password: "a long password 1",
    role: "admin",
  });
  const owner = userCaller({ ...user, role: "admin" });
  admin = await auth.session(user.id, user.email);
  chatflowId = (
    await createChatflow(
      { name: "Support desk", description: "", graph: exampleFlow("conversation.json").graph as never },
      owner,
    )
  ).id;
  const step = (id: string, type: string, inputs = {}) => ({ id, type, position: { x: 0, y: 0 }, data: { inputs } });
  const graph = {
    nodes: [
      step("start", "startAgentflow", {
        startInputType: "formInput",
        formInputTypes: [
          { type: "string", label: "Customer name", name: "customer" },
          { type: "options", label: "Plan", name: "plan", addOptions: [{ option: "free" }, { option: "pro" }] },
        ],
      }),
      step("reply", "directReplyAgentflow", { directReplyMessage: "Welcome {{$form.customer}} on {{$form.plan}}" }),
    ],
    edges: [
      { id: "e", source: "start", sourceHandle: "start:out:output", target: "reply", targetHandle: "reply:in:input" },
    ],
  };
  formFlowId = (await createChatflow({ name: "Onboarding form", type: "AGENTFLOW", graph: graph as never }, owner)).id;
  server = await serveRoutes([
    { method: "POST", pattern: /^\/api\/v1\/mcp\/(?<chatflowId>[^/]+)$/, handler: mcp.POST as never },
    { method: "GET", pattern: /^\/api\/v1\/mcp\/(?<chatflowId>[^/]+)$/, handler: mcp.GET as never },
    { method: "DELETE", pattern: /^\/api\/v1\/mcp\/(?<chatflowId>[^/]+)$/, handler: mcp.DELETE as never },
  ]);
});
afterAll(() => Promise.all([stub.close(), server.close()]));

describe("a chatflow as an MCP server", () => {
  let token: string;

  it("is off until enabled; enabling answers the token once, with defaults from the flow", async () => {
    const before = await manage("GET", chatflowId);
    expect(before.json).toMatchObject({ enabled: false, toolName: "Support_desk", tokenHint: "" });
    expect(before.json.token).toBeUndefined();
    const bad = await manage("POST", chatflowId, { toolName: "has spaces!" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/tool name/i);
    const made = await manage("POST", chatflowId, {});
    expect(made.status, made.text).toBe(201);
    expect(made.json).toMatchObject({
      enabled: true,
      toolName: "Support_desk",
      endpoint: `/api/v1/mcp/${chatflowId}`,
    });
    expect(made.json.description).toMatch(/Support desk/);
    token = made.json.token;
    expect(token).toMatch(/^sy_mcp_/);
    expect(made.json.tokenHint).toBe(token.slice(0, made.json.tokenHint.length));
    const again = await manage("GET", chatflowId);
    expect(again.json.enabled).toBe(true);
    expect(again.json.token).toBeUndefined();
    // Enabled already: POST is a conflict that says what to use instead, and the token still works.
    const twice = await manage("POST", chatflowId, { toolName: "Other_name" });
    expect(twice.status).toBe(409);
    expect(twice.json.error.code).toBe("conflict");
    expect(twice.json.error.message).toMatch(/already enabled.*PUT.*refresh/);
    expect(twice.text).not.toContain("sy_mcp_");
    expect((await manage("GET", chatflowId)).json).toMatchObject({ enabled: true, toolName: "Support_desk" });
  });

  it("stores only the token's hash", async () => {
    const row = await (await getDb()).mcpServer.findUnique({ where: { chatflowId } });
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token.slice(-20));
  });

  it("initializes, lists its one tool and answers a call with the flow's answer", async () => {
    const client = await connect(chatflowId, token);
    expect(client.getServerVersion()?.name).toContain("Support_desk");
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({ name: "Support_desk", title: "Support desk" });
    expect(tools[0]!.inputSchema).toMatchObject({ type: "object", required: ["question"] });
    const before = stub.requests.length;
    const result = await client.callTool({ name: "Support_desk", arguments: { question: "hello there" } });
    expect(result.isError).toBeFalsy();
    expect((result.content as { type: string; text: string }[])[0]!.text).toMatch(/^Hello!/);
    expect(stub.requests.length - before).toBe(1);
    await client.close();
  });

  it("answers a failed run as a tool result with isError, not a transport failure", async () => {
    stub.setBrain(() => ({ error: { status: 400, message: "the model refused" } }));
    try {
      const client = await connect(chatflowId, token);
      const result = await client.callTool({ name: "Support_desk", arguments: { question: "hi" } });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(/failed|refused/i);
      await client.close();
    } finally {
      stub.setBrain(demoBrain);
    }
  });

  it("refuses a wrong or missing token with 401, and counts them against the address", async () => {
    expect((await post(chatflowId, {})).status).toBe(401);
    const wrong = await post(chatflowId, auth.bearer(`${token}x`));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await wrong.text()).not.toContain(token);
    await expect(connect(chatflowId, "sy_mcp_wrong")).rejects.toThrow();
    // Through the handler with a chosen address: past the limit even the right token is 429.
    const from = (ip: string, t: string) =>
      call(mcp.POST, {
        method: "POST",
        params: { chatflowId },
        headers: { ...auth.bearer(t), accept: ACCEPT, "x-switchyard-client-ip": ip },
        body: INITIALIZE,
      });
    for (let i = 0; i < MCP_AUTH_FAILURES_PER_IP; i++) expect((await from("10.9.9.9", "wrong")).status).toBe(401);
    const limited = await from("10.9.9.9", token);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await from("10.9.9.10", token)).status).toBe(200);
  });

  it("answers malformed JSON-RPC with a JSON-RPC error, never a 500", async () => {
    const headers = auth.bearer(token);
    const notJson = await post(chatflowId, headers, "{not json");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
    const notRpc = await post(chatflowId, headers, JSON.stringify({ hello: "world" }));
    expect(notRpc.status).toBe(400);
    expect((await notRpc.json()).error.code).toBeLessThan(0);
    const unknown = await post(chatflowId, headers, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "no/such" }));
    expect(unknown.status).toBeLessThan(500);
    expect(await unknown.json()).toMatchObject({ id: 7, error: { code: -32601 } });
    const wrongAccept = await post(chatflowId, { ...headers, accept: "text/html" });
    expect(wrongAccept.status).toBe(406);
  });

  it("answers GET and DELETE with 405 (stateless: no stream, no session)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${server.url}/api/v1/mcp/${chatflowId}`, { method, headers: auth.bearer(token) });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toContain("POST");
    }
  });

  it("refuses browsers unless their origin is allowed in the flow's MCP settings", async () => {
    const origin = "https://assistant.example.com";
    const refused = await post(chatflowId, { ...auth.bearer(token), origin });
    expect(refused.status).toBe(403);
    const changed = await manage("PUT", chatflowId, { allowedOrigins: [origin], toolName: "support.desk" });
    expect(changed.json).toMatchObject({ allowedOrigins: [origin], toolName: "support.desk" });
    expect(changed.json.token).toBeUndefined();
    const allowed = await post(chatflowId, { ...auth.bearer(token), origin });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(origin);
    const pre = await call(mcp.OPTIONS, { method: "OPTIONS", params: { chatflowId }, headers: { origin } });
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
    expect((await post(chatflowId, { ...auth.bearer(token), origin: "https://evil.example" })).status).toBe(403);
  });

  it("rotating the token refuses the old one and takes the new", async () => {
    const rotated = await call(refresh.POST, { method: "POST", params: { id: chatflowId }, headers: admin });
    expect(rotated.status, rotated.text).toBe(200);
    const fresh = rotated.json.token as string;
    expect(fresh).toMatch(/^sy_mcp_/);
    expect(fresh).not.toBe(token);
    expect((await post(chatflowId, auth.bearer(token))).status).toBe(401);
    const client = await connect(chatflowId, fresh);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["support.desk"]);
    await client.close();
    token = fresh;
  });

  it("disabled, the endpoint answers 404; enabled again, a new token", async () => {
    const off = await manage("DELETE", chatflowId);
    expect(off.json).toMatchObject({ enabled: false, tokenHint: "", toolName: "support.desk" });
    expect((await post(chatflowId, auth.bearer(token))).status).toBe(404);
    expect((await call(refresh.POST, { method: "POST", params: { id: chatflowId }, headers: admin })).status).toBe(404);
    const on = await manage("PUT", chatflowId, { enabled: true });
    expect(on.json.enabled).toBe(true);
    expect(on.json.token).toMatch(/^sy_mcp_/);
    expect((await post(chatflowId, auth.bearer(token))).status).toBe(401);
    expect((await post(chatflowId, auth.bearer(on.json.token))).status).toBe(200);
  });
});

describe("an agentflow started by a form", () => {
  it("is a tool whose input schema is the Start form's fields, run with them", async () => {
    const made = await manage("POST", formFlowId, { toolName: "onboard", description: "Welcome a customer" });
    const client = await connect(formFlowId, made.json.token);
    const [tool] = (await client.listTools()).tools;
    expect(tool).toMatchObject({ name: "onboard", description: "Welcome a customer" });
    expect(tool!.inputSchema.properties).toMatchObject({
      customer: { type: "string", description: "Customer name" },
      plan: { enum: ["free", "pro"] },
    });
    expect([...(tool!.inputSchema.required ?? [])].sort()).toEqual(["customer", "plan"]);
    const result = await client.callTool({ name: "onboard", arguments: { customer: "Ada", plan: "pro" } });
    expect((result.content as { text: string }[])[0]!.text).toBe("Welcome Ada on pro");
    expect(result.isError).toBeFalsy();
    const refused = await client.callTool({ name: "onboard", arguments: { customer: "Ada", plan: "gold" } });
    expect(refused.isError).toBe(true);
    await client.close();
  });
});
