import { DT } from "../../vector/node-types";
import { fileLoaderInputs } from "../../vector/loader-inputs";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const textFileLoaderDefinition = {
  name: "textFileLoader",
  version: 1,
  label: "Text File Loader",
  category: "Document Loaders",
  description: "Loads a text or Markdown file (.txt, .md) as one document; accepts uploads of those types.",
  inputs: fileLoaderInputs([".txt", ".md", ".markdown"]),
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
