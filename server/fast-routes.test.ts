import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadFastRoutes } from "./fast-routes.mjs";

// loadFastRoutes borrows Next's internals (docs/upgrading.md): each way it can fail must come back
// as a reason start.mjs prints, never as a silent fallback to Next. Builds here are stand-ins in
// temporary directories: a route.js shaped like Next's compiled route module, and either no Next
// at all or this checkout's node_modules (the installed Next's instrumentation module, for real).

const repoRoot = path.resolve(import.meta.dirname, "..");
const ROUTE = ".next/server/app/api/v1/prediction/[id]/route.js";
const INTERNAL = "next/dist/server/lib/router-utils/instrumentation-globals.external";
const made: string[] = [];

/** A project directory whose build holds `routeSource` as the prediction route (none when null). */
function fakeProject(routeSource: string | null, options: { installedNext?: boolean } = {}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-fast-routes-"));
  made.push(root);
  if (routeSource !== null) {
    fs.mkdirSync(path.dirname(path.join(root, ROUTE)), { recursive: true });
    fs.writeFileSync(path.join(root, ROUTE), routeSource);
  }
  if (options.installedNext) fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(root, "node_modules"));
  return root;
}

/** A compiled route module as Next 16 builds it: userland readable once ensureUserland() resolved. */
const NEXT_SHAPED_ROUTE = `
let loaded;
exports.routeModule = {
  async ensureUserland() {
    loaded = { POST: async (req, ctx) => new Response("fake " + (await ctx.params).id, { status: 201 }) };
  },
  get userland() {
    if (!loaded) throw new Error("userland read before ensureUserland()");
    return loaded;
  },
};`;

afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

describe("loadFastRoutes: why predictions would be served by Next", () => {
  it("a build without the prediction route: the reason names the missing file", async () => {
    const root = fakeProject(null);
    const { fast, reason } = await loadFastRoutes(root);
    expect(fast).toBeNull();
    expect(reason).toBe(`the build has no prediction route (${path.join(root, ROUTE)} is missing)`);
  });

  it("a route module without ensureUserland() (Next changed its shape): the reason names it", async () => {
    const root = fakeProject("exports.routeModule = { userland: { POST() {} } };", { installedNext: true });
    const { fast, reason } = await loadFastRoutes(root);
    expect(fast).toBeNull();
    expect(reason).toBe(`${path.join(root, ROUTE)} has no routeModule.ensureUserland() (Next's route module changed)`);
  });

  it("a route whose modules fail to load: the reason carries the error's first line", async () => {
    const failing = `exports.routeModule = { async ensureUserland() { throw new Error("DATABASE_URL is wrong\\n  at somewhere"); } };`;
    const root = fakeProject(failing, { installedNext: true });
    const { fast, reason } = await loadFastRoutes(root);
    expect(fast).toBeNull();
    expect(reason).toBe(`loading ${path.join(root, ROUTE)} failed: DATABASE_URL is wrong`);
  });

  it("a route without a POST handler: the reason says so", async () => {
    const root = fakeProject("exports.routeModule = { async ensureUserland() {}, userland: { GET() {} } };");
    const { fast, reason } = await loadFastRoutes(root);
    expect(fast).toBeNull();
    expect(reason).toBe("routeModule.userland has no POST function after ensureUserland()");
  });

  it("Next's internal module missing: the reason names the module that could not be loaded", async () => {
    const root = fakeProject(NEXT_SHAPED_ROUTE); // no node_modules: no Next to resolve from here
    const { fast, reason } = await loadFastRoutes(root);
    expect(fast).toBeNull();
    expect(reason).toMatch(new RegExp(`^cannot load ${INTERNAL}: Cannot find module '${INTERNAL}'`));
  });

  it("with the installed Next: loads, serves the prediction path and counts what it served", async () => {
    const root = fakeProject(NEXT_SHAPED_ROUTE, { installedNext: true });
    const { fast, reason } = await loadFastRoutes(root);
    expect(reason).toBeNull();
    if (!fast) throw new Error("no fast routes");
    const server = http.createServer((req, res) => {
      if (!fast(req, res)) res.writeHead(299).end("next");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/prediction`;
      const id = "0b9d6a34-5f0e-4c39-9d0a-2f4f3c1a7e21";
      const served = await fetch(`${url}/${id}`, { method: "POST", body: "{}" });
      expect([served.status, await served.text()]).toEqual([201, `fake ${id}`]);
      const toNext = await fetch(`${url}/not-a-uuid`, { method: "POST", body: "{}" });
      expect([toNext.status, await toNext.text()]).toEqual([299, "next"]);
      expect(fast.served).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
