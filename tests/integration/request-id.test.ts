import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as chatflows from "../../app/api/v1/chatflows/route";
import { createLogger, replaceRootLogger } from "../../lib/log";
import { setupFirstAdmin } from "../../lib/services/users";
import { auth, call } from "../support/http";

// Every request gets an id (the caller's well-formed x-request-id, else a UUID), echoed on the
// response, and one log line naming it: method, path without query, status, duration, caller kind.
let lines: Record<string, unknown>[];
let restore: () => void;

beforeEach(() => {
  lines = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  restore = replaceRootLogger(createLogger({ level: "info", destination }));
});
afterEach(() => restore());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it("echoes a well-formed x-request-id, on errors too, and logs one line without secrets or query", async () => {
    const res = await call(chatflows.GET as never, {
      path: "/api/v1/chatflows?search=secret-search",
      headers: { "x-request-id": "lb-7f3a.2:x_y", authorization: "Bearer sk-not-a-real-key-123" },
    });
    expect(res.status).toBe(400); // this route takes no query: refused before authentication
    expect(res.headers.get("x-request-id")).toBe("lb-7f3a.2:x_y");
    const requestLines = lines.filter((l) => l.requestId === "lb-7f3a.2:x_y");
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      msg: "request",
      method: "GET",
      path: "/api/v1/chatflows",
      status: 400,
      caller: "none",
      role: "api",
    });
    expect(typeof requestLines[0].ms).toBe("number");
    const text = JSON.stringify(lines);
    expect(text).not.toContain("sk-not-a-real-key-123");
    expect(text).not.toContain("secret-search");
  });

  it("replaces a missing or malformed id with a new UUID", async () => {
    for (const given of [undefined, "", "has space", "x".repeat(129), "semi;colon", "ünï"]) {
      const res = await call(chatflows.GET as never, {
        headers: given === undefined ? {} : { "x-request-id": given },
      });
      const id = res.headers.get("x-request-id");
      expect(id, String(given)).toMatch(UUID);
      expect(lines.at(-1)?.requestId).toBe(id);
    }
  });

  it("names the caller kind of a signed-in request and answers 200 with the id", async () => {
    const admin = await setupFirstAdmin({ email: "admin@rid.test", name: "Admin", password: "admin-pass-123" });
    const res = await call(chatflows.GET as never, { headers: await auth.session(admin.id, "admin@rid.test") });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id");
    expect(id).toMatch(UUID);
    expect(lines.find((l) => l.requestId === id)).toMatchObject({ status: 200, caller: "user" });
  });
});
