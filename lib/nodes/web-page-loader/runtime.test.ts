import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { testContext } from "../../flow/__fixtures__/graphs";
import { createGuardedFetch } from "../../security/outbound";
import type { DocumentSource } from "../../vector/types";
import { getDefinition } from "../registry";
import { webPageLoader } from ".";

let server: http.Server;
let base: string;
const hits: string[] = [];
const page = (title: string, body: string) =>
  `<html><head><title>${title}</title><script>evil()</script></head><body><nav>Menu</nav><main>${body}</main><footer>Footer</footer></body></html>`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.push(path);
    const html = (s: string) => res.writeHead(200, { "content-type": "text/html" }).end(s);
    const xml = (s: string) => res.writeHead(200, { "content-type": "application/xml" }).end(s);
    if (path === "/")
      html(
        page(
          "Home",
          `<h1>Welcome</h1><a href="/a">A</a> <a href='b'>B</a> <a href="https://elsewhere.example/x">out</a> <a href="/logo.png">logo</a> <a href="/a#top">A again</a>`,
        ),
      );
    else if (path === "/a") html(page("Page A", `<p>Alpha text.</p><a href="/c">C</a>`));
    else if (path === "/b") html(page("Page B", "<p>Beta text.</p>"));
    else if (path === "/c") html(page("Page C", "<p>Gamma text.</p>"));
    else if (path === "/sitemap.xml")
      xml(`<?xml version="1.0"?><sitemapindex><sitemap><loc>${base}/pages.xml</loc></sitemap></sitemapindex>`);
    else if (path === "/pages.xml")
      xml(
        `<urlset><url><loc>${base}/b</loc></url><url><loc>${base}/c</loc></url><url><loc>${base}/missing</loc></url></urlset>`,
      );
    else res.writeHead(404).end("no");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function load(
  params: Record<string, unknown>,
  fetch = createGuardedFetch({ allowPrivate: true }) as unknown as typeof globalThis.fetch,
) {
  const parsed = paramsSchemaFor(getDefinition("webPageLoader")!).parse(params);
  const source = (await webPageLoader.runtime({
    nodeId: "w",
    label: "Web",
    params: parsed,
    inputs: {},
    ctx: { ...testContext(), fetch },
  })) as DocumentSource;
  return source.load([]);
}

describe("Web Page Loader", () => {
  it("reads one page as readable text with its title and URL as metadata", async () => {
    hits.length = 0;
    const docs = await load({ url: `${base}/a`, metadata: { team: "docs" } });
    expect(docs).toEqual([
      { pageContent: "Alpha text.\n\nC", metadata: { team: "docs", source: `${base}/a`, title: "Page A" } },
    ]);
    expect(hits).toEqual(["/a"]);
  });

  it("crawls same-site links breadth first up to the limit, never other sites or files", async () => {
    hits.length = 0;
    const docs = await load({ url: `${base}/`, mode: "crawl", limit: 3, selector: "main" });
    expect(docs.map((d) => d.metadata.source)).toEqual([`${base}/`, `${base}/a`, `${base}/b`]);
    expect(hits).toEqual(["/", "/a", "/b"]);
    expect(docs[1].pageContent).toBe("Alpha text.\n\nC");
    for (const d of docs) expect(d.pageContent).not.toMatch(/Menu|Footer|evil/);
  });

  it("reads a sitemap index's pages, skipping one that fails", async () => {
    const docs = await load({ url: `${base}/sitemap.xml`, mode: "sitemap", limit: 10 });
    expect(docs.map((d) => d.metadata.title)).toEqual(["Page B", "Page C"]);
  });

  it("names the failure when no page loads, and goes through the outbound guard", async () => {
    await expect(load({ url: `${base}/missing` })).rejects.toMatchObject({
      code: "upstream_error",
      message: expect.stringContaining(`no page could be read (${base}/missing: HTTP 404)`),
    });
    const guarded = createGuardedFetch({}) as unknown as typeof globalThis.fetch;
    await expect(load({ url: `${base}/a` }, guarded)).rejects.toMatchObject({ code: "upstream_error" });
    await expect(load({ url: `${base}/nope.xml`, mode: "sitemap" })).rejects.toMatchObject({
      message: expect.stringContaining("the sitemap"),
    });
  });
});
