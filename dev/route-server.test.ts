import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Route, serveRoutes } from "./route-server";

// The route server answers by Next's app-router rules, which the tests that use it rely on.
const echo = (name: string) => async (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) =>
  Response.json({ name, method: req.method, params: await ctx.params, body: req.body ? await req.text() : null });

const routes: Route[] = [
  { method: "GET", pattern: /^\/items\/new$/, handler: echo("new") },
  { method: "GET", pattern: /^\/items\/(?<id>[^/]+)$/, handler: echo("item") },
  { method: "POST", pattern: /^\/items\/(?<id>[^/]+)$/, handler: echo("item") },
  { method: "GET", pattern: /^\/files\/(?<path>.+)$/, handler: echo("files"), catchAll: "path" },
  {
    method: "GET",
    pattern: /^\/boom$/,
    handler: () => {
      throw new Error("boom");
    },
  },
];

let plain: Awaited<ReturnType<typeof serveRoutes>>;
let production: Awaited<ReturnType<typeof serveRoutes>>;
beforeAll(async () => {
  plain = await serveRoutes(routes);
  production = await serveRoutes(routes, { productionServer: true });
});
afterAll(() => Promise.all([plain.close(), production.close()]));

describe("route server (dev/route-server.ts)", () => {
  it("calls the first matching route with decoded params, a catch-all as a list, and the body", async () => {
    expect(await (await fetch(`${plain.url}/items/new`)).json()).toMatchObject({ name: "new", params: {} });
    expect(await (await fetch(`${plain.url}/items/a%20b`)).json()).toMatchObject({ params: { id: "a b" } });
    expect(await (await fetch(`${plain.url}/files/x/y%2Fz`)).json()).toMatchObject({ params: { path: ["x", "y/z"] } });
    const posted = await fetch(`${plain.url}/items/1`, { method: "POST", body: "hello" });
    expect(await posted.json()).toMatchObject({ method: "POST", body: "hello" });
  });

  it("answers HEAD from GET without a body, OPTIONS with Allow, a missing method 405, an unknown path 404", async () => {
    const head = await fetch(`${plain.url}/items/1`, { method: "HEAD" });
    expect([head.status, await head.text()]).toEqual([200, ""]);
    const options = await fetch(`${plain.url}/items/1`, { method: "OPTIONS" });
    expect([options.status, options.headers.get("allow")]).toEqual([204, "GET, HEAD, OPTIONS, POST"]);
    // /items/new matches first: its file has no POST, whatever the dynamic route has.
    expect((await fetch(`${plain.url}/items/new`, { method: "POST" })).status).toBe(405);
    const unknown = await fetch(`${plain.url}/nothing`);
    expect([unknown.status, unknown.headers.get("x-app-server")]).toEqual([404, "no-route"]);
  });

  it("answers 500 for a handler that throws, and serves on", async () => {
    expect((await fetch(`${plain.url}/boom`)).status).toBe(500);
    expect((await fetch(`${plain.url}/items/1`)).status).toBe(200);
  });

  it("puts npm start's server in front when asked: unknown methods refused in the error shape", async () => {
    const res = await fetch(`${production.url}/items/1`, { method: "PROPFIND" });
    expect(res.status).toBe(405);
    expect((await res.json()).error.code).toBe("method_not_allowed");
    const bare = await fetch(`${plain.url}/items/1`, { method: "PROPFIND" });
    expect([bare.status, await bare.text()]).toEqual([405, ""]);
  });
});
