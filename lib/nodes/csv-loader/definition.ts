import { DT } from "../../vector/node-types";
import { fileLoaderInputs } from "../../vector/loader-inputs";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const csvLoaderDefinition = {
  name: "csvLoader",
  version: 1,
  label: "CSV Loader",
  category: "Document Loaders",
  description:
    'Loads a CSV file with a header row: one document per row, as "column: value" lines; accepts CSV uploads.',
  inputs: [
    ...fileLoaderInputs([".csv"]),
    {
      kind: "param",
      name: "columns",
      label: "Columns",
      type: "string",
      optional: true,
      placeholder: "question, answer",
      description: "Comma-separated columns to keep (default: all).",
    },
  ],
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
