import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testContext } from "../../flow/__fixtures__/graphs";
import { paramsSchemaFor } from "@/common/nodes/params";
import { getDefinition } from "../registry";
import { requestsPost } from ".";

let server: http.Server;
let origin: string;
const seen: { method?: string; url?: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method, url: req.url, body, headers: req.headers });
      const status = req.url === "/full" ? 507 : 201;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(status === 201 ? JSON.stringify({ created: JSON.parse(body) }) : "storage full");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

type Tool = { name: string; invoke(input: unknown): Promise<string> };
const build = (inputs: Record<string, unknown>) =>
  requestsPost.runtime({
    nodeId: "p",
    label: "Orders",
    params: paramsSchemaFor(getDefinition("requestsPost")!).parse(inputs),
    inputs: {},
    ctx: testContext({
      h: {
        name: "Orders API",
        type: "httpHeaders",
        data: { allowedHosts: [new URL(origin).host], headers: { Authorization: "Bearer t" } },
      },
    }),
  }) as Promise<Tool>;

describe("Requests Post tool", () => {
  it("POSTs the agent's JSON body with the builder's fixed fields on top, and the credential's headers", async () => {
    const post = await build({ url: `${origin}/orders`, body: { shop: "berlin" }, headersCredential: "h" });
    expect(post.name).toBe("requests_post");
    const answer = await post.invoke({ body: { item: "lamp", shop: "elsewhere" } });
    expect(JSON.parse(answer)).toEqual({ created: { item: "lamp", shop: "berlin" } });
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/orders" });
    expect(seen.at(-1)?.headers).toMatchObject({ authorization: "Bearer t", "content-type": "application/json" });
  });

  it("throws a non-2xx answer with its status, and refuses a fixed body that is not an object", async () => {
    const post = await build({ url: `${origin}/full` });
    await expect(post.invoke({ body: {} })).rejects.toThrow(
      /POST http:\/\/127\.0\.0\.1:\d+\/full answered HTTP 507: storage full/,
    );
    await expect(build({ url: `${origin}/orders`, body: [1, 2] })).rejects.toMatchObject({ code: "invalid_graph" });
  });
});
