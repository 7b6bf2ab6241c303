import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { paramsSchemaFor } from "@/common/nodes/params";
import { testContext } from "../../flow/__fixtures__/graphs";
import { splitDocuments } from "../../vector/loaders";
import { getDefinition, getNode } from "../registry";

type Splitter = { splitText(text: string): Promise<string[]> };
async function splitter(type: string, params: Record<string, unknown> = {}) {
  const parsed = paramsSchemaFor(getDefinition(type)!).parse(params);
  return (await getNode(type)!.runtime({
    nodeId: "s",
    label: "Splitter",
    params: parsed,
    inputs: {},
    ctx: testContext(),
  })) as Splitter;
}

const MARKDOWN = `# Guide

Intro paragraph.

## Install

Run the installer.

\`\`\`sh
# not a heading: a comment in a code block
npm ci
\`\`\`

## Use

Open the studio.

### Details

Fine print.`;

describe("text splitters", () => {
  it("Markdown: one chunk per section at the chosen heading level, headings kept, code-block comments not headings", async () => {
    const byH2 = await (
      await splitter("markdownTextSplitter", { splitByHeaders: "h2", chunkSize: 500, chunkOverlap: 0 })
    ).splitText(MARKDOWN);
    expect(byH2).toEqual([
      "# Guide\n\nIntro paragraph.",
      "## Install\n\nRun the installer.\n\n```sh\n# not a heading: a comment in a code block\nnpm ci\n```",
      "## Use\n\nOpen the studio.\n\n### Details\n\nFine print.",
    ]);
    const byH3 = await (
      await splitter("markdownTextSplitter", { splitByHeaders: "h3", chunkSize: 500, chunkOverlap: 0 })
    ).splitText(MARKDOWN);
    expect(byH3.at(-1)).toBe("### Details\n\nFine print.");
  });

  it("Markdown: a section longer than the chunk size is split further; disabled splits by size alone", async () => {
    const long = `## Big\n\n${"word ".repeat(80)}\n\n${"more ".repeat(80)}`;
    const chunks = await (
      await splitter("markdownTextSplitter", { splitByHeaders: "h2", chunkSize: 450, chunkOverlap: 0 })
    ).splitText(long);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(450);
    const plain = await (await splitter("markdownTextSplitter", { chunkSize: 60, chunkOverlap: 0 })).splitText(
      MARKDOWN,
    );
    for (const c of plain) expect(c.length).toBeLessThanOrEqual(60);
  });

  it("Character: cuts on the separator typed with escapes", async () => {
    const s = await splitter("characterTextSplitter", { separator: "\\n", chunkSize: 20, chunkOverlap: 0 });
    expect(await s.splitText("alpha beta\ngamma delta\nepsilon")).toEqual(["alpha beta", "gamma delta\nepsilon"]);
  });

  it("Code: cuts Python on function boundaries before lines", async () => {
    const code = "def a():\n    return 1\n\ndef b():\n    return 2\n";
    const chunks = await (
      await splitter("codeTextSplitter", { language: "python", chunkSize: 30, chunkOverlap: 0 })
    ).splitText(code);
    expect(chunks).toEqual(["def a():\n    return 1", "def b():\n    return 2"]);
  });

  it("Token: chunks of N tokens with the overlap, from the bundled tokenizer (no download)", async () => {
    const text = "The quick brown fox jumps over the lazy dog. ".repeat(20);
    const chunks = await (await splitter("tokenTextSplitter", { chunkSize: 30, chunkOverlap: 5 })).splitText(text);
    const enc = getEncoding("cl100k_base");
    const total = enc.encode(text).length;
    for (const c of chunks.slice(0, -1)) expect(enc.encode(c).length).toBeLessThanOrEqual(30);
    expect(chunks.length).toBe(Math.ceil((total - 5) / 25));
    expect(chunks.join("").length).toBeGreaterThan(text.length);
  });

  it("refuses an overlap not below the chunk size, naming the node", async () => {
    for (const type of ["markdownTextSplitter", "characterTextSplitter", "codeTextSplitter", "tokenTextSplitter"])
      await expect(splitter(type, { chunkSize: 100, chunkOverlap: 100 })).rejects.toMatchObject({
        code: "invalid_graph",
        message: "Splitter: chunk overlap (100) must be smaller than chunk size (100).",
      });
  });

  it("split documents keep their metadata through any splitter", async () => {
    const s = await splitter("markdownTextSplitter", { splitByHeaders: "h2", chunkSize: 500, chunkOverlap: 0 });
    const chunks = await splitDocuments(
      [{ pageContent: MARKDOWN, metadata: { source: "guide.md" } }],
      s as never,
      "Splitter",
    );
    expect(chunks).toHaveLength(3);
    for (const c of chunks) expect(c.metadata).toMatchObject({ source: "guide.md" });
  });
});
