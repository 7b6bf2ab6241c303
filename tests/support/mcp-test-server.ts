/**
 * A local MCP server built with the official SDK on a free 127.0.0.1 port, for the MCP Tools node's
 * tests: `/mcp` speaks Streamable HTTP (stateless), `/sse` + `/messages` the older SSE transport,
 * `/garbage` answers HTML, `/hang` never answers. Every tool call is recorded with its headers.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export interface McpTestServer {
  origin: string;
  calls: { tool: string; args: unknown; authorization?: string }[];
  close(): Promise<void>;
}

export async function createMcpTestServer(): Promise<McpTestServer> {
  const calls: McpTestServer["calls"] = [];
  let authorization: string | undefined;

  const protocolServer = () => {
    const server = new McpServer({ name: "weather-test", version: "1.0.0" });
    server.registerTool(
      "get_forecast",
      { description: "The weather forecast of a city", inputSchema: { city: z.string().describe("City name") } },
      async ({ city }) => {
        calls.push({ tool: "get_forecast", args: { city }, authorization });
        return { content: [{ type: "text", text: `Sunny in ${city}, 21 °C` }] };
      },
    );
    server.registerTool(
      "get_alerts",
      { description: "Weather alerts of a region", inputSchema: { region: z.string() } },
      async ({ region }) => {
        calls.push({ tool: "get_alerts", args: { region }, authorization });
        return { content: [{ type: "text", text: `No alerts for ${region}` }], isError: region === "nowhere" };
      },
    );
    return server;
  };

  const sse = new Map<string, SSEServerTransport>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    authorization = req.headers.authorization;
    if (url.pathname === "/hang") return; // never answers
    if (url.pathname === "/garbage") {
      res.writeHead(200, { "content-type": "text/html" }).end("<html>not an MCP server</html>");
      return;
    }
    if (url.pathname === "/mcp") {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      const mcp = protocolServer();
      res.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body);
      return;
    }
    if (url.pathname === "/sse" && req.method === "GET") {
      const transport = new SSEServerTransport("/messages", res);
      sse.set(transport.sessionId, transport);
      res.on("close", () => sse.delete(transport.sessionId));
      await protocolServer().connect(transport);
      return;
    }
    if (url.pathname === "/messages" && req.method === "POST") {
      const transport = sse.get(url.searchParams.get("sessionId") ?? "");
      if (!transport) return res.writeHead(404).end();
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
