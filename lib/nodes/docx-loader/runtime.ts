import type { TextSplitter } from "@langchain/textsplitters";
import { FILE_TYPES } from "../../vector/file-types";
import { fileDocumentSource } from "../../vector/loaders";
import { parseDocx } from "../../vector/parsers";
import type { NodeRuntime } from "../runtime-types";

/** Builds a Word document loader. */
export const buildDocxLoader: NodeRuntime = async ({ params, inputs, label }) =>
  fileDocumentSource({
    label,
    params,
    accepts: [FILE_TYPES.docx.mime],
    splitter: inputs.textSplitter as TextSplitter | undefined,
    parse: parseDocx,
  });
