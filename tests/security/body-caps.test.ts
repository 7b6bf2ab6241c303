import { beforeAll, describe, expect, it } from "vitest";
import { bodyCap, type BodySpec } from "../../lib/http/body";
import { routeOptionsOf } from "../../lib/http/route-options";
import { type AppRoute, loadApiRoutes } from "../../dev/route-server";

// Issue 37: a body declared past a route's cap is refused from its Content-Length, before the route
// authenticates the caller or reads a byte. Every route() handler that takes a body is called with no
// credentials, its cap + 1 declared, and a body stream that never ends: it must answer 413 naming the
// cap at once (reading the body would wait forever; authenticating first would answer 401).
// e2e/request-bodies.spec.ts sends real bodies just under and over the caps through the built server.

type Options = { body?: BodySpec<unknown, unknown>; params?: unknown };

let routes: AppRoute[];
beforeAll(async () => {
  routes = await loadApiRoutes();
});

const uuid = "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b";

/** A body that sends one byte and then nothing, ever. */
const endless = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array([123]));
    },
  });

describe("a declared body past a route's cap", () => {
  it("is refused 413 naming the cap, before authentication and before reading, on every route that takes a body", async () => {
    const tried: string[] = [];
    for (const route of routes) {
      for (const method of route.methods) {
        const handler = route.module[method] as (req: Request, ctx: unknown) => Promise<Response>;
        const options = routeOptionsOf(handler) as Options | undefined;
        if (!options?.body) continue;
        // Path params: a well-formed value for each (ids are checked before the body).
        const params = Object.fromEntries(
          [...route.pattern.source.matchAll(/\(\?<(\w+)>/g)].map(([, name]) => [name, name === "n" ? "1" : uuid]),
        );
        const path = route.file.replace(/^app/, "").replace(/\/route\.ts$/, "");
        for (const contentType of ["application/json", "multipart/form-data; boundary=x"]) {
          const probe = new Request(`http://127.0.0.1:3000${path}`, {
            method,
            headers: { "content-type": contentType },
          });
          const { maxBytes } = bodyCap(probe, options.body);
          const req = new Request(`http://127.0.0.1:3000${path}`, {
            method,
            headers: { "content-type": contentType, "content-length": String(maxBytes + 1) },
            body: endless(),
            duplex: "half",
          } as RequestInit);
          const res = await handler(req, { params: Promise.resolve(params) });
          const where = `${method} ${path} (${contentType.split(";")[0]})`;
          expect(res.status, where).toBe(413);
          const { error } = await res.json();
          expect(error.code, where).toBe("payload_too_large");
          expect(error.message, where).toContain(`larger than ${maxBytes} bytes`);
          tried.push(where);
        }
      }
    }
    // The routes the issue names are among them.
    for (const where of [
      "POST /api/v1/prediction/[id] (application/json)",
      "POST /api/v1/prediction/[id] (multipart/form-data)",
      "POST /api/v1/vector/upsert/[id] (multipart/form-data)",
      "POST /api/v1/vector/upsert/[id] (application/json)",
      "POST /api/v1/chatflows/import (application/json)",
      "POST /api/v1/credentials (application/json)",
    ])
      expect(tried).toContain(where);
  });
});
