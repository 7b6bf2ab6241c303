import { anchor, dataUrlFile, defineMapping, ignore, param, toJson } from "../rules";

/** Flowise "Csv File" → our csvLoader: the uploaded file is kept with its name; its "document" output maps, "text" does not. */
export const csvFile = defineMapping({
  flowise: "csvFile",
  type: "csvLoader",
  inputs: {
    csvFile: param("file", dataUrlFile),
    textSplitter: anchor("textSplitter"),
    metadata: param("metadata", toJson),
    columnName: ignore(
      "single-column extraction (the column's value as the text) has no exact equivalent: set Columns on our CSV Loader",
      () => false,
    ),
    omitMetadataKeys: ignore("omitting metadata keys has no equivalent", () => false),
  },
  outputs: { document: "document" },
});
