import { SOURCE_NAME_MAX_LENGTH } from "../../vector/loader-inputs";
import { DT } from "../../vector/node-types";
import type { NodeDefinitionSpec } from "@/common/nodes/types";

export const plainTextLoaderDefinition = {
  name: "plainTextLoader",
  version: 1,
  label: "Plain Text",
  category: "Document Loaders",
  description:
    "Text typed into the flow (or given by overrideConfig.text when allowed) as one document. Takes no uploads.",
  inputs: [
    { kind: "anchor", name: "textSplitter", label: "Text splitter", accepts: [DT.textSplitter], optional: true },
    { kind: "param", name: "text", label: "Text", type: "text" },
    {
      kind: "param",
      name: "sourceName",
      label: "Source name",
      type: "string",
      maxLength: SOURCE_NAME_MAX_LENGTH,
      default: "text",
      additional: true,
    },
    { kind: "param", name: "metadata", label: "Extra metadata", type: "json", optional: true, additional: true },
  ],
  outputs: [{ name: "document", label: "Document", types: [DT.document] }],
} as const satisfies NodeDefinitionSpec;
