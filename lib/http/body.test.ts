import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readBody, type MultipartSpec } from "./body";

const schema = z.object({ name: z.string() });
const parse = <T>(s: z.ZodType<T>, input: unknown) => s.parse(input);
const spec = (over: Partial<MultipartSpec<string>> = {}): MultipartSpec<string> => ({
  maxBytes: 10_000,
  fileField: "files",
  maxFiles: 2,
  what: "upsert",
  file: (name, bytes) => `${name}:${bytes.length}`,
  ...over,
});

const jsonReq = (body: string) =>
  new Request("http://x/", { method: "POST", headers: { "content-type": "application/json" }, body });
const formReq = (form: FormData) => new Request("http://x/", { method: "POST", body: form });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
  );

describe("route() body option", () => {
  it("JSON only: the handler gets the parsed value; a form is 415", async () => {
    expect(await readBody(jsonReq('{"name":"a"}'), { json: schema }, parse)).toEqual({ name: "a" });
    const form = new FormData();
    form.set("name", "a");
    expect(await failure(readBody(formReq(form), { json: schema }, parse))).toEqual({
      code: "unsupported_media_type",
      message: "Send the body as application/json.",
    });
  });

  it("JSON or multipart: `{ json }` or `{ form }` with checked files and repeated fields", async () => {
    const both = { json: schema, multipart: () => spec() };
    expect(await readBody(jsonReq('{"name":"a"}'), both, parse)).toEqual({ json: { name: "a" } });
    const form = new FormData();
    form.append("files", new Blob(["hello"]), "a.txt");
    form.append("tag", "x");
    form.append("tag", "y");
    expect(await readBody(formReq(form), both, parse)).toEqual({
      form: { files: ["a.txt:5"], fields: { tag: ["x", "y"] } },
    });
  });

  it("refuses files elsewhere, too many files, NUL in a field and a body over the cap, in our words", async () => {
    const run = (form: FormData, over?: Partial<MultipartSpec<string>>) =>
      failure(readBody(formReq(form), { json: schema, multipart: () => spec(over) }, parse));
    const elsewhere = new FormData();
    elsewhere.append("doc", new Blob(["x"]), "a.txt");
    expect(await run(elsewhere)).toEqual({
      code: "validation_failed",
      message: 'Send files in the form field "files" (got a file in "doc").',
    });
    const many = new FormData();
    for (const n of ["a", "b", "c"]) many.append("files", new Blob(["x"]), `${n}.txt`);
    expect(await run(many)).toEqual({ code: "payload_too_large", message: "At most 2 files per upsert." });
    const nul = new FormData();
    nul.append("k\u0000ey", "v");
    expect(await run(nul)).toEqual({
      code: "bad_request",
      message: 'Form field "key": must not contain a NUL character.',
    });
    const big = new FormData();
    big.append("files", new Blob(["x".repeat(500)]), "a.txt");
    expect(await run(big, { maxBytes: 100 })).toEqual({
      code: "payload_too_large",
      message: "The upload is larger than 100 bytes (0.1 KiB).",
    });
  });
});

describe("a body that does not arrive", () => {
  /** A JSON request whose body is `start` and then whatever `more` does with the stream's controller. */
  const streamed = (start: string, more: (c: ReadableStreamDefaultController<Uint8Array>) => void) =>
    new Request("http://x/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(new TextEncoder().encode(start));
          more(c);
        },
      }),
      duplex: "half",
    } as RequestInit);

  it("is 408 once the route's deadline passes, even while bytes keep trickling in", async () => {
    let trickle: ReturnType<typeof setInterval> | undefined;
    const req = streamed('{"name":', (c) => {
      trickle = setInterval(() => c.enqueue(new TextEncoder().encode(" ")), 10);
    });
    try {
      expect(await failure(readBody(req, { json: schema, timeoutMs: 200 }, parse))).toEqual({
        code: "request_timeout",
        message: "Body did not arrive within 200 ms.",
      });
    } finally {
      clearInterval(trickle);
    }
  });

  it("is 408 when the client cuts it off, and a whole body in time is read as usual", async () => {
    const cut = streamed('{"name":', (c) => queueMicrotask(() => c.error(new Error("socket hang up"))));
    expect(await failure(readBody(cut, { json: schema, timeoutMs: 5_000 }, parse))).toEqual({
      code: "request_timeout",
      message: "Body did not arrive whole (the client stopped sending).",
    });
    const whole = streamed('{"name":"a"}', (c) => c.close());
    expect(await readBody(whole, { json: schema, timeoutMs: 5_000 }, parse)).toEqual({ name: "a" });
  });
});
