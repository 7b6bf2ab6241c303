import { DT } from "../../vector/node-types";
import { fileLoaderInputs } from "../../vector/loader-inputs";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const docxLoaderDefinition = {
  name: "docxLoader",
  version: 1,
  label: "DOCX Loader",
  category: "Document Loaders",
  description: "Loads the text of a Word document (.docx) as one document; accepts DOCX uploads.",
  inputs: fileLoaderInputs([".docx"]),
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
