import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGuardedRequest } from "../security/outbound";
import { sandboxFetchOver } from "./fetch";
import { runInSandbox, sandboxPool } from "./index";

/** A local API, reached by user code only through the outbound guard. */
const api = http.createServer((req, res) => {
  let body = "";
  req
    .on("data", (c) => (body += c))
    .on("end", () => {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ method: req.method, path: req.url, auth: req.headers.authorization ?? null, body }));
    });
});
let origin = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sandboxPool().close();
  await new Promise((resolve) => api.close(resolve));
});

const code = `const r = await fetch($url + "/orders?id=7", {
    method: "POST", headers: { Authorization: "Bearer " + $vars.token }, body: JSON.stringify({ qty: 2 }) });
  return { status: r.status, text: r.statusText, type: r.headers.get("content-type"), data: await r.json() };`;

describe("fetch through the outbound guard", () => {
  it("reaches a host the guard allows, with the method, headers and body the code gave", async () => {
    const host = new URL(origin).host;
    const fetch = sandboxFetchOver(createGuardedRequest({ allowPrivateHosts: [host], requester: "Custom Tool" }));
    const outcome = await runInSandbox({ code, variables: { url: origin, vars: { token: "t1" } }, fetch });
    expect(outcome).toMatchObject({
      ok: true,
      value: {
        status: 200,
        text: "OK",
        type: "application/json",
        data: { method: "POST", path: "/orders?id=7", auth: "Bearer t1", body: '{"qty":2}' },
      },
    });
  });

  it("is refused a private address the operator did not allow, and the code is told why", async () => {
    const fetch = sandboxFetchOver(createGuardedRequest({ requester: "Custom Tool" }));
    const outcome = await runInSandbox({ code, variables: { url: origin, vars: { token: "t1" } }, fetch });
    expect(outcome).toMatchObject({ ok: false, error: { kind: "error" } });
    expect(outcome.error?.message).toMatch(/^TypeError: fetch failed: Custom Tool.*(private|not allowed)/i);
  });
});
