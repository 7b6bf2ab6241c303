import type { TextSplitter } from "@langchain/textsplitters";
import { FILE_TYPES } from "../../vector/file-types";
import { fileDocumentSource } from "../../vector/loaders";
import { parseText } from "../../vector/parsers";
import type { NodeRuntime } from "../runtime-types";

/** Builds a loader of text and Markdown files. */
export const buildTextFileLoader: NodeRuntime = async ({ params, inputs, label }) =>
  fileDocumentSource({
    label,
    params,
    accepts: [FILE_TYPES.text.mime, FILE_TYPES.markdown.mime],
    splitter: inputs.textSplitter as TextSplitter | undefined,
    parse: parseText,
  });
