import type { TextSplitter } from "@langchain/textsplitters";
import { FILE_TYPES } from "../../vector/file-types";
import { fileDocumentSource } from "../../vector/loaders";
import { parsePdf } from "../../vector/parsers";
import type { NodeRuntime } from "../runtime-types";

/** Builds a PDF loader (text layer only; scanned pages without text give nothing). */
export const buildPdfLoader: NodeRuntime = async ({ params, inputs, label }) =>
  fileDocumentSource({
    label,
    params,
    accepts: [FILE_TYPES.pdf.mime],
    splitter: inputs.textSplitter as TextSplitter | undefined,
    parse: (file) => parsePdf(file, params.usage !== "perFile"),
  });
