import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_CATALOGUE_FILE, nodeCatalogueMarkdown } from "./catalogue";
import { nodeDefinitions } from "./registry";

describe("node catalogue", () => {
  it("is up to date with the registry and the Flowise mappings (npm run docs:nodes)", () => {
    const file = fs.readFileSync(path.resolve(import.meta.dirname, "../..", NODE_CATALOGUE_FILE), "utf8");
    expect(file, "run npm run docs:nodes").toBe(nodeCatalogueMarkdown());
  });

  it("lists every node once, with the Flowise types that import onto it", () => {
    const md = nodeCatalogueMarkdown();
    const typeColumn = md.split("\n").map((line) => line.split(" | ")[1]);
    for (const d of nodeDefinitions) expect(typeColumn.filter((t) => t === `\`${d.name}\``).length, d.name).toBe(1);
    expect(md).toMatch(/\| `chatOpenAICompatible` \|.*`chatOpenAI`.*`chatOpenAICustom`/);
  });
});
