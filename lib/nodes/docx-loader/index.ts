import { FILE_TYPES } from "../../vector/file-types";
import { parseDocx } from "../../vector/parsers";
import { defineNode } from "../define";
import { fileLoaderRuntime } from "../shared/file-loader";
import { docxLoaderDefinition } from "./definition";

/** A Word document loader. */
export const docxLoader = defineNode({
  definition: docxLoaderDefinition,
  runtime: fileLoaderRuntime([FILE_TYPES.docx.mime], parseDocx),
});
