import type { NodeDefinitionSpec } from "@/common/nodes/types";
import { DT } from "../../vector/node-types";
import { chunkParams } from "../shared/splitters";

export const tokenTextSplitterDefinition = {
  name: "tokenTextSplitter",
  version: 1,
  label: "Token Text Splitter",
  category: "Text Splitters",
  description: "Splits documents into chunks of a number of model tokens (OpenAI's tokenizers).",
  inputs: [
    {
      kind: "param",
      name: "encodingName",
      label: "Tokenizer",
      type: "options",
      default: "cl100k_base",
      options: [
        { label: "o200k_base (GPT-4o, GPT-4.1, o-series)", name: "o200k_base" },
        { label: "cl100k_base (GPT-4, GPT-3.5, embeddings)", name: "cl100k_base" },
        { label: "p50k_base (Codex, text-davinci-002/003)", name: "p50k_base" },
        { label: "p50k_edit", name: "p50k_edit" },
        { label: "r50k_base (GPT-3)", name: "r50k_base" },
        { label: "gpt2", name: "gpt2" },
      ],
    },
    ...chunkParams("tokens"),
  ],
  outputs: [{ name: "textSplitter", label: "Text splitter", types: [DT.textSplitter] }],
} as const satisfies NodeDefinitionSpec;
