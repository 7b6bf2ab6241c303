import { DT } from "../../vector/node-types";
import { fileLoaderInputs } from "../../vector/loader-inputs";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const jsonLoaderDefinition = {
  name: "jsonLoader",
  version: 1,
  label: "JSON Loader",
  category: "Document Loaders",
  description:
    "Loads the text fields a pointer selects in a JSON (or JSON Lines) file, one document each; accepts JSON uploads.",
  inputs: [
    ...fileLoaderInputs([".json", ".jsonl"]),
    {
      kind: "param",
      name: "pointer",
      label: "Pointer to the text",
      type: "string",
      optional: true,
      placeholder: "/articles/*/body",
      pattern: "^(/[^/]*)*$",
      description: "A JSON pointer; * matches every array element or key. Empty: every string in the file.",
    },
  ],
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
