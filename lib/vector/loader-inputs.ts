import type { NodeInputSpec } from "@/common/nodes/types";
import { DT } from "./node-types";

/**
 * Most characters of a loader's source name: it is part of the chunks' unique btree index, whose
 * rows PostgreSQL caps at ~2,700 bytes (300 four-byte characters leave room for the node id).
 */
export const SOURCE_NAME_MAX_LENGTH = 300;

/**
 * Inputs every file loader shares (plain data for the definitions): an optional text splitter, the
 * saved file (text, or `data:<mime>;name=<file name>;base64,…` for binary formats, so their bytes
 * survive the JSON), the source name recorded for that saved file, and extra metadata for every
 * document.
 */
export function fileLoaderInputs(fileTypes: readonly string[]) {
  return [
    { kind: "anchor", name: "textSplitter", label: "Text splitter", accepts: [DT.textSplitter], optional: true },
    {
      kind: "param",
      name: "file",
      label: "File",
      type: "file",
      optional: true,
      fileTypes,
      description: "A file saved with the flow. Files uploaded to the upsert API replace it for that upsert.",
    },
    {
      kind: "param",
      name: "sourceName",
      label: "Source name",
      type: "string",
      maxLength: SOURCE_NAME_MAX_LENGTH,
      optional: true,
      additional: true,
      description:
        "Recorded as `source` of the saved file's chunks (default: its file name, else the node's label). Uploads use their file name.",
    },
    { kind: "param", name: "metadata", label: "Extra metadata", type: "json", optional: true, additional: true },
  ] as const satisfies readonly NodeInputSpec[];
}
