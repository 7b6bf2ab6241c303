import { DT } from "../../vector/node-types";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const recursiveTextSplitterDefinition = {
  name: "recursiveTextSplitter",
  version: 1,
  label: "Recursive Character Text Splitter",
  category: "Text Splitters",
  description: "Splits documents into chunks of about `chunk size` characters, on paragraphs, then lines, then words.",
  inputs: [
    {
      kind: "param",
      name: "chunkSize",
      label: "Chunk size",
      type: "number",
      default: 1000,
      integer: true,
      min: 20,
      max: 100_000,
    },
    {
      kind: "param",
      name: "chunkOverlap",
      label: "Chunk overlap",
      type: "number",
      default: 200,
      integer: true,
      min: 0,
      max: 50_000,
    },
    {
      kind: "param",
      name: "separators",
      label: "Separators",
      type: "json",
      optional: true,
      additional: true,
      description: 'A JSON array of separators tried in order, e.g. ["\\n\\n", "\\n", " ", ""].',
    },
  ],
  outputs: [{ name: "textSplitter", label: "Text splitter", types: [DT.textSplitter] }],
} as const satisfies NodeDefinitionSpec;
