import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";
import { chunkParams } from "../shared/splitters";

const LANGUAGES = [
  "cpp",
  "go",
  "java",
  "js",
  "php",
  "proto",
  "python",
  "rst",
  "ruby",
  "rust",
  "scala",
  "swift",
  "markdown",
  "latex",
  "html",
  "sol",
] as const;

export const codeTextSplitterDefinition = {
  name: "codeTextSplitter",
  version: 1,
  label: "Code Text Splitter",
  category: "Text Splitters",
  description:
    "Splits source code on the language's own boundaries (classes, functions, blocks) before lines and words.",
  inputs: [
    {
      kind: "param",
      name: "language",
      label: "Language",
      type: "options",
      default: "js",
      options: LANGUAGES.map((name) => ({ label: name, name })),
    },
    ...chunkParams("characters"),
  ],
  outputs: [{ name: "textSplitter", label: "Text splitter", types: [DT.textSplitter] }],
} as const satisfies NodeDefinitionSpec;
