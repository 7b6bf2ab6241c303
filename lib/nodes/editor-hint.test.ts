import { describe, expect, it } from "vitest";
import { editorLanguageOf } from "@/common/nodes/editor-hint";
import { getDefinition } from "@/lib/nodes/registry";

describe("editorLanguageOf", () => {
  it("gives code params YAML, json params JSON and plain params none", () => {
    expect(editorLanguageOf({ type: "code" })).toBe("yaml");
    expect(editorLanguageOf({ type: "json" })).toBe("json");
    expect(editorLanguageOf({ type: "text" })).toBeUndefined();
    expect(editorLanguageOf({ type: "string" })).toBeUndefined();
  });

  it("lets the definition's hint win", () => {
    expect(editorLanguageOf({ type: "text", editor: "prompt" })).toBe("prompt");
    expect(editorLanguageOf({ type: "code", editor: "json" })).toBe("json");
  });

  it("marks the prompt templates of the built-in nodes as prompts, and leaves tool descriptions plain", () => {
    const param = (node: string, name: string) => {
      const def = getDefinition(node);
      const p = def?.inputs.find((i) => i.name === name);
      if (p?.kind !== "param") throw new Error(`${node}.${name} is not a param`);
      return p;
    };
    expect(editorLanguageOf(param("promptTemplate", "template"))).toBe("prompt");
    expect(editorLanguageOf(param("openApiChain", "spec"))).toBe("yaml");
    expect(editorLanguageOf(param("chainTool", "description"))).toBeUndefined();
  });
});
