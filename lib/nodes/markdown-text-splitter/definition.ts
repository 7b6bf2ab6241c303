import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";
import { chunkParams } from "../shared/splitters";

export const markdownTextSplitterDefinition = {
  name: "markdownTextSplitter",
  version: 1,
  label: "Markdown Text Splitter",
  category: "Text Splitters",
  description: "Splits Markdown on headings, code blocks and paragraphs; optionally one section per heading first.",
  inputs: [
    ...chunkParams("characters"),
    {
      kind: "param",
      name: "splitByHeaders",
      label: "Split by headings",
      type: "options",
      default: "disabled",
      options: [
        { label: "No (chunk size only)", name: "disabled" },
        { label: "# headings (H1)", name: "h1" },
        { label: "## and above (H2)", name: "h2" },
        { label: "### and above (H3)", name: "h3" },
        { label: "#### and above (H4)", name: "h4" },
        { label: "##### and above (H5)", name: "h5" },
        { label: "###### and above (H6)", name: "h6" },
      ],
      description: "Each section keeps its heading; a section longer than the chunk size is split further.",
    },
  ],
  outputs: [{ name: "textSplitter", label: "Text splitter", types: [DT.textSplitter] }],
} as const satisfies NodeDefinitionSpec;
