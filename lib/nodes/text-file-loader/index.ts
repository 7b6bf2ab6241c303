import { FILE_TYPES } from "../../vector/file-types";
import { parseText } from "../../vector/parsers";
import { defineNode } from "../define";
import { fileLoaderRuntime } from "../shared/file-loader";
import { textFileLoaderDefinition } from "./definition";

/** A loader of text and Markdown files. */
export const textFileLoader = defineNode({
  definition: textFileLoaderDefinition,
  runtime: fileLoaderRuntime([FILE_TYPES.text.mime, FILE_TYPES.markdown.mime], parseText),
});
