import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "../../flow/__fixtures__/graphs";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import { requestsGet } from ".";

let server: http.Server;
let origin: string;
const seen: { url?: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    if (req.url?.startsWith("/missing")) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("no such item");
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: req.url, padding: "x".repeat(5000) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

type Tool = { name: string; invoke(input: unknown): Promise<string> };
const creds = () => ({
  h: {
    name: "Items API",
    type: "httpHeaders",
    data: { allowedHosts: [new URL(origin).host], headers: { "X-Api-Key": "secret" } },
  },
  elsewhere: { name: "Other API", type: "httpHeaders", data: { allowedHosts: ["api.example.com"], headers: {} } },
});
const build = (inputs: Record<string, unknown>) =>
  requestsGet.runtime({
    nodeId: "g",
    label: "Items",
    params: paramsSchemaFor(getDefinition("requestsGet")!).parse(inputs),
    inputs: {},
    ctx: testContext(creds()),
  }) as Promise<Tool>;

describe("Requests Get tool", () => {
  it("GETs the builder's URL with the agent's query parameters and the credential's headers, cut to max length", async () => {
    const get = await build({ url: `${origin}/items?fixed=1`, headersCredential: "h", maxOutputLength: 100 });
    expect(get.name).toBe("requests_get");
    const answer = await get.invoke({ queryParams: { q: "red shoes", limit: 5 } });
    expect(answer).toHaveLength(100);
    expect(answer.startsWith(JSON.stringify({ path: "/items?fixed=1&q=red+shoes&limit=5" }).slice(0, -1))).toBe(true);
    expect(seen.at(-1)).toMatchObject({ url: "/items?fixed=1&q=red+shoes&limit=5" });
    expect(seen.at(-1)?.headers["x-api-key"]).toBe("secret");
    await get.invoke({});
    expect(seen.at(-1)?.url).toBe("/items?fixed=1");
  });

  it("throws a non-2xx answer with its status (the agent reads it as a tool error)", async () => {
    const get = await build({ url: `${origin}/missing` });
    await expect(get.invoke({})).rejects.toThrow(
      /GET http:\/\/127\.0\.0\.1:\d+\/missing answered HTTP 404: no such item/,
    );
  });

  it("refuses a headers credential not allowed for the URL's host, and a URL that is not one", async () => {
    await expect(build({ url: `${origin}/items`, headersCredential: "elsewhere" })).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringContaining('credential "Other API" may only be sent to api.example.com'),
    });
    await expect(build({ url: "http://exa mple/" })).rejects.toMatchObject({ code: "invalid_graph" });
    expect(paramsSchemaFor(getDefinition("requestsGet")!).safeParse({ url: "file:///etc/passwd" }).success).toBe(false);
  });
});
