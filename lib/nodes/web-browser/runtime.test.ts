import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { testContext } from "../../flow/__fixtures__/graphs";
import { createGuardedFetch } from "../../security/outbound";
import { getDefinition } from "../registry";
import { webBrowser } from ".";
import { readableText } from "../shared/html-text";

const PAGE = `<!doctype html><html><head><title>Laptops on sale</title><style>body{color:red}</style>
<script>document.write("tracking")</script></head><body><nav>Home | Shop | Cart</nav>
<h1>Laptops</h1><p>The <a href="/x">ThinkPad X1</a> costs 1499 EUR.</p><img src="a.png" alt="photo">
<table><tr><th>Model</th><th>Price</th></tr><tr><td>X1</td><td>1499</td></tr></table>
<p>${"Battery, screen and keyboard specs. ".repeat(12)}</p><footer>© shop</footer></body></html>`;

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.url = new URL(req.url ?? "/", "http://x").pathname;
    if (req.url === "/page") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
    else if (req.url === "/plain") res.writeHead(200, { "content-type": "text/plain" }).end("just text");
    else if (req.url === "/binary")
      res.writeHead(200, { "content-type": "application/pdf" }).end(Buffer.from([0x25, 0x50, 0x44, 0x46]));
    else res.writeHead(404, { "content-type": "text/plain" }).end("nope");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function browser(fetch: typeof globalThis.fetch, params = {}) {
  const parsed = paramsSchemaFor(getDefinition("webBrowser")!).parse(params);
  const ctx = { ...testContext(), fetch };
  return (await webBrowser.runtime({ nodeId: "b", label: "Browser", params: parsed, inputs: {}, ctx })) as {
    invoke(input: unknown): Promise<string>;
  };
}
const allowed = () => createGuardedFetch({ allowPrivate: true }) as unknown as typeof globalThis.fetch;

describe("Web Browser tool", () => {
  it("reads a page as its title and readable text: no scripts, styles, navigation, images or link targets", async () => {
    const out = await (await browser(allowed())).invoke({ url: `${base}/page?ref=1` });
    expect(out.startsWith(`Laptops on sale\n${base}/page\n\n`)).toBe(true);
    expect(out).toContain("LAPTOPS");
    expect(out).toContain("The ThinkPad X1 costs 1499 EUR.");
    expect(out).toMatch(/X1\s+1499/);
    for (const gone of ["tracking", "color:red", "Home | Shop", "© shop", "a.png", "/x]"])
      expect(out).not.toContain(gone);
  });

  it("passes plain text as it is, names what it cannot read, and fails on an error status", async () => {
    const t = await browser(allowed());
    expect(await t.invoke({ url: `${base}/plain` })).toBe(`${base}/plain\n\njust text`);
    await expect(t.invoke({ url: `${base}/binary` })).rejects.toThrow("is not a text page (application/pdf)");
    await expect(t.invoke({ url: `${base}/missing` })).rejects.toThrow(`${base}/missing answered HTTP 404`);
    await expect(t.invoke({ url: "file:///etc/passwd" })).rejects.toThrow("only http(s) pages can be read");
    await expect(t.invoke({ url: "not a url" })).rejects.toThrow("is not a URL");
  });

  it("goes through the outbound guard: a private address the operator did not allow is refused", async () => {
    const guarded = createGuardedFetch({}) as unknown as typeof globalThis.fetch;
    await expect((await browser(guarded)).invoke({ url: `${base}/page` })).rejects.toThrow(/could not read .*\/page/);
  });

  it("caps what reaches the agent", async () => {
    const out = await (await browser(allowed(), { maxOutputLength: 200 })).invoke({ url: `${base}/page` });
    expect(out.length).toBe(201);
  });

  it("readableText keeps headings, paragraphs and tables", () => {
    expect(readableText("<h2>Title</h2><p>a</p><p>b</p>")).toBe("TITLE\n\na\n\nb");
  });
});
