import { FILE_TYPES } from "../../vector/file-types";
import { parseCsv } from "../../vector/parsers";
import { defineNode } from "../define";
import { fileLoaderRuntime } from "../shared/file-loader";
import { csvLoaderDefinition } from "./definition";

/** The columns to keep, from "a, b"; undefined keeps all. */
function columnList(columns: string | undefined): string[] | undefined {
  return columns === undefined
    ? undefined
    : columns
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean);
}

/** A CSV loader (one document per row). */
export const csvLoader = defineNode({
  definition: csvLoaderDefinition,
  runtime: fileLoaderRuntime([FILE_TYPES.csv.mime], (file, params: { columns?: string }) =>
    parseCsv(file, columnList(params.columns)),
  ),
});
