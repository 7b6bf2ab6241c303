import type { TextSplitter } from "@langchain/textsplitters";
import { FILE_TYPES } from "../../vector/file-types";
import { fileDocumentSource } from "../../vector/loaders";
import { parseJson } from "../../vector/parsers";
import type { NodeRuntime } from "../runtime-types";

/** Builds a JSON loader: each selected string becomes a document with its path in `pointer`. */
export const buildJsonLoader: NodeRuntime = async ({ params, inputs, label }) =>
  fileDocumentSource({
    label,
    params,
    accepts: [FILE_TYPES.json.mime],
    splitter: inputs.textSplitter as TextSplitter | undefined,
    parse: (file) => parseJson(file, String(params.pointer ?? "")),
  });
