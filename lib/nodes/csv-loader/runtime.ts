import type { TextSplitter } from "@langchain/textsplitters";
import { FILE_TYPES } from "../../vector/file-types";
import { fileDocumentSource } from "../../vector/loaders";
import { parseCsv } from "../../vector/parsers";
import type { NodeRuntime } from "../runtime-types";

/** Builds a CSV loader (one document per row). */
export const buildCsvLoader: NodeRuntime = async ({ params, inputs, label }) => {
  const columns = typeof params.columns === "string" ? params.columns.split(",").map((c) => c.trim()).filter(Boolean) : undefined;
  return fileDocumentSource({
    label,
    params,
    accepts: [FILE_TYPES.csv.mime],
    splitter: inputs.textSplitter as TextSplitter | undefined,
    parse: (file) => parseCsv(file, columns),
  });
};
