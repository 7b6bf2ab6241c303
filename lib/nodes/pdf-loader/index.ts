import { FILE_TYPES } from "../../vector/file-types";
import { parsePdf } from "../../vector/parsers";
import { defineNode } from "../define";
import { fileLoaderRuntime } from "../shared/file-loader";
import { pdfLoaderDefinition } from "./definition";

/** A PDF loader (text layer only; scanned pages without text give nothing). */
export const pdfLoader = defineNode({
  definition: pdfLoaderDefinition,
  runtime: fileLoaderRuntime([FILE_TYPES.pdf.mime], (file, params: { usage: "perPage" | "perFile" }) =>
    parsePdf(file, params.usage !== "perFile"),
  ),
});
