import { DT } from "../../vector/node-types";
import { fileLoaderInputs } from "../../vector/loader-inputs";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const pdfLoaderDefinition = {
  name: "pdfLoader",
  version: 1,
  label: "PDF Loader",
  category: "Document Loaders",
  description: "Loads the text of a PDF, one document per page or per file; accepts PDF uploads.",
  inputs: [
    ...fileLoaderInputs([".pdf"]),
    {
      kind: "param",
      name: "usage",
      label: "Usage",
      type: "options",
      default: "perPage",
      options: [
        { label: "One document per page", name: "perPage" },
        { label: "One document per file", name: "perFile" },
      ],
    },
  ],
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
