import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { testContext } from "../../flow/__fixtures__/graphs";
import type { DocumentSource } from "../../vector/types";
import { getDefinition } from "../registry";
import { githubLoader } from ".";

/** A GitHub REST API for one repository (octo/docs@main), as its reference describes the two calls. */
const FILES: Record<string, string> = {
  "README.md": "# Docs\n\nStart here.",
  "guide/install.md": "Run npm ci.",
  "src/index.ts": "export const x = 1;",
  "logo.png": "\u0089PNG",
  "package-lock.json": "{}",
};
let server: http.Server;
let api: string;
const seen: { path: string; auth?: string; accept?: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push({ path: url.pathname + url.search, auth: req.headers.authorization, accept: req.headers.accept });
    if (req.headers.authorization && req.headers.authorization !== "Bearer ghp_good") {
      res.writeHead(401, { "content-type": "application/json" }).end('{"message":"Bad credentials"}');
      return;
    }
    if (url.pathname === "/repos/octo/docs/git/trees/main") {
      const recursive = url.searchParams.get("recursive") === "1";
      const tree = Object.keys(FILES)
        .filter((p) => recursive || !p.includes("/"))
        .map((p) => ({ path: p, type: "blob", size: FILES[p].length }));
      if (recursive) tree.push({ path: "guide", type: "tree", size: 0 });
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ sha: "abc", tree, truncated: false }));
      return;
    }
    const file = /^\/repos\/octo\/docs\/contents\/(.+)$/.exec(url.pathname)?.[1];
    if (file && url.searchParams.get("ref") === "main" && decodeURIComponent(file) in FILES) {
      res.writeHead(200, { "content-type": "text/plain" }).end(FILES[decodeURIComponent(file)]);
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end('{"message":"Not Found"}');
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function load(params: Record<string, unknown>, token = "ghp_good") {
  const parsed = paramsSchemaFor(getDefinition("githubLoader")!).parse({ credential: "gh", ...params });
  const ctx = testContext({ gh: { name: "GitHub", type: "github", data: { apiKey: token, baseURL: api } } });
  const source = (await githubLoader.runtime({
    nodeId: "g",
    label: "Repo",
    params: parsed,
    inputs: {},
    ctx,
  })) as DocumentSource;
  return source.load([]);
}

describe("GitHub Repository loader", () => {
  it("reads every text file of the ref through the tree and raw contents, with the token, paths as sources", async () => {
    seen.length = 0;
    const docs = await load({ repoLink: "https://github.com/octo/docs", ignorePaths: ["*.lock", "package-lock.json"] });
    expect(docs.map((d) => [d.metadata.source, d.pageContent])).toEqual([
      ["README.md", "# Docs\n\nStart here."],
      ["guide/install.md", "Run npm ci."],
      ["src/index.ts", "export const x = 1;"],
    ]);
    expect(docs[0].metadata).toMatchObject({ repository: "octo/docs", branch: "main" });
    expect(seen[0]).toMatchObject({ path: "/repos/octo/docs/git/trees/main?recursive=1", auth: "Bearer ghp_good" });
    expect(seen[1]).toMatchObject({
      path: "/repos/octo/docs/contents/README.md?ref=main",
      accept: "application/vnd.github.raw+json",
    });
  });

  it("top level only when not recursive; globs leave paths out; a file cap holds", async () => {
    expect((await load({ repoLink: "octo/docs", recursive: false })).map((d) => d.metadata.source)).toEqual([
      "README.md",
      "package-lock.json",
    ]);
    expect(
      (await load({ repoLink: "octo/docs", ignorePaths: ["guide/**", "src/*"] })).map((d) => d.metadata.source),
    ).toEqual(["README.md", "package-lock.json"]);
    expect(await load({ repoLink: "octo/docs", maxFiles: 1 })).toHaveLength(1);
  });

  it("a wrong token, an unknown repository or branch: 502 naming the repository and what to check", async () => {
    await expect(load({ repoLink: "octo/docs" }, "ghp_bad")).rejects.toMatchObject({
      code: "upstream_error",
      message: expect.stringContaining("GitHub answered octo/docs@main: refused (HTTP 401"),
    });
    await expect(load({ repoLink: "octo/nope" })).rejects.toMatchObject({
      message: expect.stringContaining("octo/nope@main: not found (a private repository needs a token"),
    });
  });

  it("refuses what is not a repository at save", () => {
    const schema = paramsSchemaFor(getDefinition("githubLoader")!);
    expect(schema.safeParse({ repoLink: "octo" }).success).toBe(false);
    expect(schema.safeParse({ repoLink: "https://github.com/octo/docs" }).success).toBe(true);
  });
});
