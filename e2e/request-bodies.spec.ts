import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createModelStub, type ModelStub } from "../dev/model-stub/server";
import { basicAuth, embeddedAppEnv, hasBuild, type RunningProcess, startApiProcess } from "../dev/processes";

// Issue 37, through the built server (`npm start` without the build step, its own port and data):
// every route gets its body whole up to its cap and a 413 naming the cap past it — declared or
// streamed, before authentication; slow and stalled senders cannot hold the server. No browser: raw
// HTTP. The suite's own app (playwright.config.ts) is not used: this one runs with small caps and
// timeouts so bodies stay a few MiB and the timeouts seconds.

const ADMIN = { email: "admin@bodies-e2e.test", password: "bodies-e2e-admin-pass" };
const basic = basicAuth(ADMIN);
const MiB = 1024 * 1024;

// The caps this server runs with (the routes compute theirs from these settings).
const UPLOAD_MAX_BYTES = MiB;
const UPLOAD_MAX_FILES = 2;
const UPSERT_MAX_FILE_BYTES = 20 * MiB; // the default
const UPSERT_MAX_FILES = 2;
const PREDICTION_JSON_CAP = Math.ceil(UPLOAD_MAX_BYTES * UPLOAD_MAX_FILES * 1.4) + MiB;
const PREDICTION_FORM_CAP = UPLOAD_MAX_BYTES * UPLOAD_MAX_FILES + MiB;
const UPSERT_FORM_CAP = UPSERT_MAX_FILE_BYTES * UPSERT_MAX_FILES + MiB;
const JSON_CAP = MiB; // routes without a cap of their own (upsert JSON, credentials)
const IMPORT_CAP = 5 * MiB;
const BODY_IDLE_TIMEOUT_MS = 1_500;
const BODY_TIMEOUT_MS = 12_000;
const MAX_PENDING_ANONYMOUS_BODIES = 32;

test.describe.configure({ mode: "serial", timeout: 180_000 });

test.describe("request bodies on the built server", () => {
  // Skipped only in a direct run without a build: `npm test` builds before the browser tests.
  test.skip(!hasBuild(), "no build (.next/BUILD_ID): this spec serves the production build");

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchyard-bodies-e2e-"));
  let stub: ModelStub | undefined;
  let app: (RunningProcess & { url: string; port: number }) | undefined;
  let key = "";
  let conversationId = "";
  let docsId = "";
  let publicId = "";

  const api = (p: string, init: RequestInit = {}) => fetch(`${app!.url}${p}`, init);
  const jsonPost = (p: string, body: unknown, headers: Record<string, string> = basic) =>
    api(p, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    stub = await createModelStub({ host: "127.0.0.1" });
    app = await startApiProcess(
      embeddedAppEnv({
        dataDir,
        admin: ADMIN,
        model: stub,
        extra: {
          UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES),
          UPLOAD_MAX_FILES: String(UPLOAD_MAX_FILES),
          UPSERT_MAX_FILES: String(UPSERT_MAX_FILES),
          BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_TIMEOUT_MS),
          BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
          HEADERS_TIMEOUT_MS: "3000",
          MAX_PENDING_ANONYMOUS_BODIES: String(MAX_PENDING_ANONYMOUS_BODIES),
          PUBLIC_RATE_LIMIT_MAX: "0",
          LOG_LEVEL: "warn",
        },
      }),
    );
    const flows = (await (await api("/api/v1/chatflows", { headers: basic })).json()) as {
      id: string;
      name: string;
      graph: { nodes: { type: string; data: { inputs: Record<string, unknown> } }[] };
    }[];
    conversationId = flows.find((f) => f.name === "Conversation")!.id;
    // The keyword-search docs flow (no embeddings) with the largest chunks, so a 15 MiB file is a
    // few hundred chunks.
    const docs = flows.find((f) => f.name === "Docs QA (keyword search, no embeddings)")!;
    const full = await (await api(`/api/v1/chatflows/${docs.id}`, { headers: basic })).json();
    for (const n of full.graph.nodes)
      if (n.type === "recursiveTextSplitter") n.data.inputs = { ...n.data.inputs, chunkSize: 100_000, chunkOverlap: 0 };
    const created = await jsonPost("/api/v1/chatflows", { name: "Big chunks", graph: full.graph });
    expect(created.status, await created.clone().text()).toBe(201);
    docsId = (await created.json()).id;
    const conversation = await (await api(`/api/v1/chatflows/${conversationId}`, { headers: basic })).json();
    const pub = await jsonPost("/api/v1/chatflows", { name: "Public", graph: conversation.graph, isPublic: true });
    expect(pub.status, await pub.clone().text()).toBe(201);
    publicId = (await pub.json()).id;
    const made = await jsonPost("/api/v1/apikey", { name: "bodies", permissions: ["upsert", "predict"] });
    expect(made.status, await made.clone().text()).toBeLessThan(300);
    key = (await made.json()).key;
  });

  test.afterAll(async () => {
    if (app && app.child.exitCode === null) await app.kill();
    await stub?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const bearer = () => ({ authorization: `Bearer ${key}` });

  test("upserts: files past 10 MB arrive whole, a file past its cap and a body past the form's cap are 413", async () => {
    for (const size of [11 * MiB, 15 * MiB]) {
      const { status, json } = await send("POST", `/api/v1/vector/upsert/${docsId}`, {
        headers: bearer(),
        form: { files: [{ field: "files", name: "notes.txt", type: "text/plain", bytes: text(size) }] },
      });
      expect(status, `${size} bytes: ${JSON.stringify(json)}`).toBe(200);
      expect(json.numAdded, `${size} bytes`).toBeGreaterThan(0);
    }
    const tooBig = await send("POST", `/api/v1/vector/upsert/${docsId}`, {
      headers: bearer(),
      form: {
        files: [{ field: "files", name: "notes.txt", type: "text/plain", bytes: text(UPSERT_MAX_FILE_BYTES + 1) }],
      },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.error.message).toContain(`larger than ${UPSERT_MAX_FILE_BYTES} bytes (UPSERT_MAX_FILE_BYTES)`);
    await expectCap(`/api/v1/vector/upsert/${docsId}`, UPSERT_FORM_CAP, "multipart");
  });

  test("upsert JSON, chatflow import and credentials: a body of exactly the cap is read whole, one byte more is 413", async () => {
    // Whitespace pads JSON to the byte without changing it: a cut body would not parse.
    const upsert = await send("POST", `/api/v1/vector/upsert/${docsId}`, {
      headers: bearer(),
      json: padded({ overrideConfig: {} }, JSON_CAP),
    });
    expect(upsert.status, JSON.stringify(upsert.json)).toBe(200);
    await expectCap(`/api/v1/vector/upsert/${docsId}`, JSON_CAP, "json");

    const exported = fs.readFileSync(path.resolve("../shared/fixtures/flowise/conversation.json"), "utf8");
    const imported = await send("POST", "/api/v1/chatflows/import", {
      headers: basic,
      json: padded({ name: "Imported whole", flowData: JSON.stringify(JSON.parse(exported)) }, IMPORT_CAP),
    });
    expect(imported.status, JSON.stringify(imported.json)).toBeLessThan(300);
    await expectCap("/api/v1/chatflows/import", IMPORT_CAP, "json", basic);

    const credential = await send("POST", "/api/v1/credentials", {
      headers: basic,
      json: padded({ name: "padded", type: "openai", data: { apiKey: "sk-padded" } }, JSON_CAP),
    });
    expect(credential.status, JSON.stringify(credential.json)).toBe(201);
    await expectCap("/api/v1/credentials", JSON_CAP, "json", basic);
  });

  test("predictions: JSON and multipart bodies of exactly the cap are answered, one byte more is 413", async () => {
    const asJson = await send("POST", `/api/v1/prediction/${conversationId}`, {
      headers: bearer(),
      json: padded({ question: "Hello there" }, PREDICTION_JSON_CAP),
    });
    expect(asJson.status, JSON.stringify(asJson.json)).toBe(200);
    expect(asJson.json.text).toBeTruthy();
    await expectCap(`/api/v1/prediction/${conversationId}`, PREDICTION_JSON_CAP, "json");

    // A JSON-string form field (history) padded with whitespace fills the form to its cap.
    const asForm = await send("POST", `/api/v1/prediction/${conversationId}`, {
      headers: bearer(),
      form: { fields: { question: "Hello there" }, padField: "history", total: PREDICTION_FORM_CAP },
    });
    expect(asForm.status, JSON.stringify(asForm.json)).toBe(200);
    expect(asForm.json.text).toBeTruthy();
    await expectCap(`/api/v1/prediction/${conversationId}`, PREDICTION_FORM_CAP, "multipart");
  });

  test("50 slow senders hold neither the server nor its memory; a stalled body is 408, slow headers too", async () => {
    const rssBefore = rssOf(app!.child.pid!);
    // Anonymous predictions on a public flow: the route authenticates them and waits for the body.
    const slow = Array.from({ length: 50 }, () => rawConnect(app!.port));
    for (const c of slow)
      c.socket.write(
        `POST /api/v1/prediction/${publicId} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"question":`,
      );
    // Each sends a byte every third of the idle limit: slow, but never stalled.
    const trickle = setInterval(() => {
      for (const c of slow) if (!c.socket.destroyed) c.socket.write(" ");
    }, BODY_IDLE_TIMEOUT_MS / 3);
    try {
      // Those past the cap on anonymous bodies are refused at once (503 server_busy).
      const refused = slow.slice(MAX_PENDING_ANONYMOUS_BODIES);
      await Promise.all(refused.map((c) => c.closed));
      for (const c of refused) expect(statusOf(c.received())).toBe(503);
      // The server answers others at once while the admitted ones trickle on for several idle limits.
      const pings: number[] = [];
      for (let i = 0; i < 9; i++) {
        const started = performance.now();
        const res = await api("/api/v1/ping");
        expect(res.status).toBe(200);
        await res.body?.cancel();
        pings.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, BODY_IDLE_TIMEOUT_MS / 2)); // spread the pings over 4.5 idle limits
      }
      pings.sort((a, b) => a - b);
      expect(pings[4], `ping times ${pings.map((p) => p.toFixed(1)).join(", ")} ms`).toBeLessThan(100);
      // Still open: slow is not stalled.
      for (const c of slow.slice(0, MAX_PENDING_ANONYMOUS_BODIES)) expect(c.socket.destroyed).toBe(false);
      const rssDuring = rssOf(app!.child.pid!);
      expect(rssDuring - rssBefore, `resident ${rssBefore} -> ${rssDuring} MB`).toBeLessThan(40);
    } finally {
      clearInterval(trickle);
    }
    // Once they stop sending, each is answered 408 after the idle limit and closed.
    await Promise.all(slow.map((c) => c.closed));
    for (const c of slow.slice(0, MAX_PENDING_ANONYMOUS_BODIES)) {
      expect(statusOf(c.received())).toBe(408);
      expect(c.received()).toContain('"code":"request_timeout"');
    }
    // Headers that never end: Node's headersTimeout, answered in the error shape.
    const headers = rawConnect(app!.port);
    headers.socket.write("GET /api/v1/ping HTTP/1.1\r\nhost: 127.0.0.1\r\n");
    await headers.closed;
    expect(statusOf(headers.received())).toBe(408);
  });

  test("a JSON body that trickles in for longer than BODY_TIMEOUT_MS is 408, though it never stalls", async () => {
    const c = rawConnect(app!.port);
    c.socket.write(
      `POST /api/v1/prediction/${publicId} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"question":`,
    );
    const trickle = setInterval(() => c.socket.destroyed || c.socket.write(" "), BODY_IDLE_TIMEOUT_MS / 3);
    try {
      await c.closed;
    } finally {
      clearInterval(trickle);
    }
    expect(statusOf(c.received())).toBe(408);
    expect(c.received()).toContain(`did not arrive within ${BODY_TIMEOUT_MS} ms`);
  });

  test("a huge declared body is refused at once, before authentication, and its connection closed", async () => {
    for (const [p, declared] of [
      [`/api/v1/vector/upsert/${docsId}`, 500 * MiB],
      ["/api/v1/chatflows", 300 * MiB],
      [`/api/v1/prediction/${conversationId}`, 500 * MiB],
    ] as const) {
      const c = rawConnect(app!.port);
      c.socket.write(
        `POST ${p} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n{"a":1`,
      );
      await c.closed;
      expect(statusOf(c.received()), p).toBe(413);
      expect(c.received(), p).toMatch(/connection: close/i);
    }
  });

  // ---- helpers ----

  /** The parts of an answer these tests read. */
  type Answer = { error: { code: string; message: string }; text?: string; numAdded?: number };

  type Form = {
    files?: { field: string; name: string; type: string; bytes: Buffer }[];
    fields?: Record<string, string>;
    /** A field whose JSON value ("[ … ]") is padded with whitespace so the whole body is `total` bytes. */
    padField?: string;
    total?: number;
  };

  /** Sends a body built to the byte (JSON text, or a multipart form) and reads the answer. */
  async function send(
    method: string,
    p: string,
    opts: { headers: Record<string, string>; json?: string; form?: Form },
  ): Promise<{ status: number; json: Answer }> {
    const { body, type } = opts.form
      ? multipart(opts.form)
      : { body: Buffer.from(opts.json!), type: "application/json" };
    const res = await api(p, {
      method,
      headers: { ...opts.headers, "content-type": type },
      body: new Uint8Array(body),
    });
    const textBody = await res.text();
    try {
      return { status: res.status, json: JSON.parse(textBody) as Answer };
    } catch {
      return { status: res.status, json: { error: { code: "not_json", message: textBody.slice(0, 300) } } };
    }
  }

  /**
   * One byte past `cap`: declared by Content-Length (refused from the header, before the body is
   * sent) and sent chunked (refused while it is read); both 413 naming the cap. With credentials
   * that may call the route, so the refusal is the size's, not the caller's.
   */
  async function expectCap(
    p: string,
    cap: number,
    kind: "json" | "multipart",
    headers: Record<string, string> = bearer(),
  ) {
    const type = kind === "json" ? "application/json" : "multipart/form-data; boundary=cap";
    const c = rawConnect(app!.port);
    const auth = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("");
    c.socket.write(
      `POST ${p} HTTP/1.1\r\nhost: 127.0.0.1\r\n${auth}content-type: ${type}\r\ncontent-length: ${cap + 1}\r\n\r\n  `,
    );
    await c.closed;
    expect(statusOf(c.received()), `${p} ${kind} declared: ${c.received()}`).toBe(413);
    expect(c.received()).toContain(`larger than ${cap} bytes`);
    const streamed = await chunked(p, type, cap + 1, headers);
    expect(streamed.status, `${p} ${kind} chunked: ${streamed.body}`).toBe(413);
    expect(streamed.body).toContain(`larger than ${cap} bytes`);
  }

  /** A body of `size` bytes sent chunked (no Content-Length), in 64 KiB pieces. */
  function chunked(p: string, type: string, size: number, headers: Record<string, string>) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${app!.url}${p}`, {
        method: "POST",
        headers: { ...headers, "content-type": type, "transfer-encoding": "chunked" },
      });
      let answered = false;
      req.on("response", (res) => {
        answered = true;
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      });
      // The server closes once it has answered; a write after that fails, which is not the test's failure.
      req.on("error", (err) => {
        if (!answered) reject(err);
      });
      const piece = Buffer.alloc(64 * 1024, 0x20);
      let left = size;
      const pump = () => {
        while (left > 0) {
          const n = Math.min(left, piece.length);
          left -= n;
          if (!req.write(piece.subarray(0, n))) return void req.once("drain", pump);
        }
        req.end();
      };
      pump();
    });
  }
});

/** `value` as JSON text padded with trailing whitespace to exactly `size` bytes. */
function padded(value: unknown, size: number): string {
  const textValue = JSON.stringify(value);
  if (Buffer.byteLength(textValue) > size) throw new Error("padded: value larger than the size");
  return textValue + " ".repeat(size - Buffer.byteLength(textValue));
}

/** Lines of text, `size` bytes in all. */
function text(size: number): Buffer {
  const line = "The refund window is thirty days from delivery; shipping to Germany takes three days.\n";
  return Buffer.from(line.repeat(Math.ceil(size / line.length)).slice(0, size));
}

/** A multipart/form-data body built by hand, so its size is exact to the byte. */
function multipart(form: {
  files?: { field: string; name: string; type: string; bytes: Buffer }[];
  fields?: Record<string, string>;
  padField?: string;
  total?: number;
}): { body: Buffer; type: string } {
  const boundary = "----switchyard-bodies-e2e";
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(form.fields ?? {}))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const f of form.files ?? [])
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field}"; filename="${f.name}"\r\ncontent-type: ${f.type}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from("\r\n"),
    );
  const end = Buffer.from(`--${boundary}--\r\n`);
  if (form.padField && form.total) {
    const head = Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${form.padField}"\r\n\r\n[`);
    const tail = Buffer.from("]\r\n");
    const used = parts.reduce((n, b) => n + b.length, 0) + end.length + head.length + tail.length;
    if (used > form.total) throw new Error("multipart: the parts are larger than the total");
    parts.push(head, Buffer.alloc(form.total - used, 0x20), tail);
  }
  parts.push(end);
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** A raw connection: what it received so far, and the connection's end. */
function rawConnect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (d) => (received += d.toString("latin1")));
  socket.on("error", () => {});
  const closed = new Promise<void>((r) => socket.once("close", () => r()));
  return { socket, received: () => received, closed };
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);

/** Resident memory of a process, in MB (Linux). */
function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}
