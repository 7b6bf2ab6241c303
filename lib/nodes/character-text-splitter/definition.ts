import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";
import { chunkParams } from "../shared/splitters";

export const characterTextSplitterDefinition = {
  name: "characterTextSplitter",
  version: 1,
  label: "Character Text Splitter",
  category: "Text Splitters",
  description: "Splits documents on one separator (a blank line by default), then merges pieces up to the chunk size.",
  inputs: [
    ...chunkParams("characters"),
    {
      kind: "param",
      name: "separator",
      label: "Separator",
      type: "string",
      optional: true,
      placeholder: "\\n\\n",
      description: 'Where to cut; "\\n" for a line break. Empty: a blank line.',
    },
  ],
  outputs: [{ name: "textSplitter", label: "Text splitter", types: [DT.textSplitter] }],
} as const satisfies NodeDefinitionSpec;
