import { FILE_TYPES } from "../../vector/file-types";
import { parseJson } from "../../vector/parsers";
import { defineNode } from "../define";
import { fileLoaderRuntime } from "../shared/file-loader";
import { jsonLoaderDefinition } from "./definition";

/** A JSON loader: each selected string becomes a document with its path in `pointer`. */
export const jsonLoader = defineNode({
  definition: jsonLoaderDefinition,
  runtime: fileLoaderRuntime([FILE_TYPES.json.mime], (file, params: { pointer?: string }) =>
    parseJson(file, params.pointer ?? ""),
  ),
});
