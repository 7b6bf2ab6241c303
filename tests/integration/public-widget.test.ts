import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseInline, parseMarkdown, safeHref } from "../../widget/markdown";
import { createEventReader as createSseReader, type StreamEvent } from "@/browser/client/sse-parser";
import { streamPrediction, WidgetError } from "../../widget/api";

// The widget's pure parts (no DOM). Its rendering, streaming and storage run in Chromium in
// e2e/widget.spec.ts.

describe("widget Markdown", () => {
  it("keeps HTML as text: nothing in an answer becomes markup", () => {
    const blocks = parseMarkdown('<img src=x onerror="alert(1)"> and <script>alert(2)</script>');
    expect(blocks).toEqual([
      { t: "p", c: [{ t: "text", v: '<img src=x onerror="alert(1)"> and <script>alert(2)</script>' }] },
    ]);
  });

  it("links only absolute http(s) and mailto URLs", () => {
    expect(parseInline("[shop](https://shop.example/p?id=1)")).toEqual([
      { t: "link", href: "https://shop.example/p?id=1", c: [{ t: "text", v: "shop" }] },
    ]);
    expect(parseInline("[click](javascript:alert(1))")).toEqual([{ t: "text", v: "click" }]);
    expect(parseInline("[x](data:text/html,<b>hi</b>)").some((n) => n.t === "link")).toBe(false);
    expect(parseInline("[x](/relative/path)").some((n) => n.t === "link")).toBe(false);
    for (const bad of [
      "javascript:alert(1)",
      " JAVASCRIPT:alert(1)",
      "vbscript:x",
      "//evil.example",
      "data:text/html;base64,PHNjcmlwdD4=",
    ]) {
      expect(safeHref(bad)).toBeNull();
    }
    expect(safeHref("mailto:help@example.com")).toBe("mailto:help@example.com");
  });

  it("turns bare URLs into links without swallowing trailing punctuation", () => {
    expect(parseInline("See https://example.com/a.")).toEqual([
      { t: "text", v: "See " },
      { t: "link", href: "https://example.com/a", c: [{ t: "text", v: "https://example.com/a" }] },
      { t: "text", v: "." },
    ]);
  });

  it("reads emphasis, code and line breaks, and leaves snake_case alone", () => {
    expect(parseInline("**ZenBook** costs *1399* `EUR`\nnext")).toEqual([
      { t: "strong", c: [{ t: "text", v: "ZenBook" }] },
      { t: "text", v: " costs " },
      { t: "em", c: [{ t: "text", v: "1399" }] },
      { t: "text", v: " " },
      { t: "code", v: "EUR" },
      { t: "br" },
      { t: "text", v: "next" },
    ]);
    expect(parseInline("max_price_eur is _set_")).toEqual([
      { t: "text", v: "max_price_eur is " },
      { t: "em", c: [{ t: "text", v: "set" }] },
    ]);
  });

  it("reads headings, lists, quotes, rules and code fences (an open fence runs to the end)", () => {
    const md =
      "## Laptops\n\n1. ThinkBook\n2. ZenBook\n   with OLED\n\n- a\n- b\n\n> note\n\n---\n```js\nconst x = '<b>';";
    expect(parseMarkdown(md)).toEqual([
      { t: "h", level: 2, c: [{ t: "text", v: "Laptops" }] },
      {
        t: "ol",
        start: 1,
        items: [
          [{ t: "text", v: "ThinkBook" }],
          [{ t: "text", v: "ZenBook" }, { t: "br" }, { t: "text", v: "with OLED" }],
        ],
      },
      { t: "ul", items: [[{ t: "text", v: "a" }], [{ t: "text", v: "b" }]] },
      { t: "quote", c: [{ t: "p", c: [{ t: "text", v: "note" }] }] },
      { t: "hr" },
      { t: "code", lang: "js", v: "const x = '<b>';" },
    ]);
  });
});

describe("widget SSE reader", () => {
  it("reads events split anywhere across chunks, skipping heartbeats", () => {
    const events: StreamEvent[] = [];
    const reader = createSseReader((e) => events.push(e));
    const wire =
      'data: {"event":"start","data":""}\n\n: heartbeat\n\ndata: {"event":"token","data":"Hel"}\r\n\r\ndata: {"event":"token","data":"lo"}\n\ndata: {"event":"end","data":"[DONE]"}';
    for (let i = 0; i < wire.length; i += 7) reader.push(wire.slice(i, i + 7));
    reader.end();
    expect(events).toEqual([
      { event: "start", data: "" },
      { event: "token", data: "Hel" },
      { event: "token", data: "lo" },
      { event: "end", data: "[DONE]" },
    ]);
  });
});

describe("widget prediction client (the shared browser/client one, with the widget's words)", () => {
  afterEach(() => vi.unstubAllGlobals());
  const ask = (events: StreamEvent[] = [], signal = new AbortController().signal) =>
    streamPrediction(
      "https://flows.example.com/",
      "f1",
      { question: "hi", chatId: "c1" },
      (e) => events.push(e),
      signal,
    );

  it("posts to the chatflow's endpoint with the chat as session, and reads a CR-only stream", async () => {
    const fetchMock = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(
          'data: {"event":"token","data":"Hi"}\r\rdata: not json\r\rdata: {"event":"end","data":"[DONE]"}\r\r',
          {
            headers: { "content-type": "text/event-stream" },
          },
        ),
    );
    vi.stubGlobal("fetch", fetchMock);
    const events: StreamEvent[] = [];
    await ask(events);
    expect(events).toEqual([
      { event: "token", data: "Hi" },
      { event: "message", data: "not json" },
      { event: "end", data: "[DONE]" },
    ]);
    expect(fetchMock.mock.calls[0][0]).toBe("https://flows.example.com/api/v1/prediction/f1");
    expect(JSON.parse(String(fetchMock.mock.calls[0][1].body))).toEqual({
      question: "hi",
      chatId: "c1",
      overrideConfig: { sessionId: "c1" },
      streaming: true,
    });
  });

  it("explains a refusal and an unreachable server in the visitor's words", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json(
        { error: { code: "rate_limited", message: "x" } },
        { status: 429, headers: { "retry-after": "7" } },
      ),
    );
    await expect(ask()).rejects.toEqual(new WidgetError("Too many messages right now. Try again in 7 s.", 429));
    vi.stubGlobal("fetch", async () =>
      Response.json({ error: { code: "forbidden", message: "Origin not allowed." } }, { status: 403 }),
    );
    await expect(ask()).rejects.toMatchObject({ status: 403, message: "Origin not allowed." });
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(ask()).rejects.toMatchObject({
      status: 0,
      message: expect.stringContaining("Couldn't reach the chatbot"),
    });
  });

  it("passes an abort on as an AbortError, not as a failure", async () => {
    const abort = new AbortController();
    abort.abort();
    vi.stubGlobal("fetch", async (_u: string, init: RequestInit) => {
      throw init.signal!.reason;
    });
    await expect(ask([], abort.signal)).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("public/embed.js", () => {
  it("is the build of widget/ as committed, and stays small", () => {
    const out = execFileSync(process.execPath, ["scripts/build-widget.mjs", "--check"], { encoding: "utf8" });
    expect(out).toMatch(/up to date/);
    // 46 KB: the agentflow steps and Human Input (issue 32, point 7) took it from 38 to 45 KB (14.4 to 16.4 KB gzipped);
    // 50 KB: the feedback thumbs and their comment box (issue 38, point 2) added 4.7 KB (1.4 KB gzipped).
    expect(fs.statSync("public/embed.js").size).toBeLessThan(50_000);
  });
});

describe("embed snippets of the publish dialog", () => {
  it("carry the server address and the real chatflow id", async () => {
    const { embedSnippets } = await import("../../components/publish/embed-snippets");
    const id = "7d0c4a3e-2f7b-4f6e-9a51-3c2d1e0f9a8b";
    const [script, init, full] = embedSnippets("https://flows.example.com", id, { primaryColor: "#0f766e" });
    expect(script.code).toBe(
      `<script src="https://flows.example.com/embed.js" data-chatflow-id="${id}" defer></script>`,
    );
    expect(init.code).toContain(`chatflowId: "${id}"`);
    expect(init.code).toContain('"primaryColor": "#0f766e"');
    expect(full.code).toContain('mode: "full"');
  });
});
